#!/usr/bin/env bash
# Installs gVisor (Debian's runsc) and registers it with the running dockerd as the OCI runtime
# `runsc`, without network (`--network=none`: runsc's own network stack refuses to run in the
# root network namespace here). Idempotent; reloads dockerd with SIGHUP, never restarts it.
# Called by `scripts/setup.sh --with-gvisor`; runs on its own too.
# Usage: scripts/setup-gvisor.sh [DAEMON_JSON]   (default /etc/docker/daemon.json)
set -euo pipefail

runtime_name=runsc
daemon_json="${1:-/etc/docker/daemon.json}"
log() { printf '[setup gvisor] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v runsc >/dev/null; then
  log "installing runsc from apt"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq runsc >/dev/null
fi
runsc_path="$(command -v runsc)"

# Merge the runtime entry into daemon.json (other keys and runtimes stay as they are).
# Prints "changed" when the file had to change, so an unchanged file needs no reload.
merge_result="$(as_root env RUNSC_PATH="$runsc_path" RUNTIME_NAME="$runtime_name" DAEMON_JSON="$daemon_json" python3 - <<'PY'
import json, os, sys
path = os.environ["DAEMON_JSON"]
config = {}
if os.path.exists(path):
    with open(path) as handle:
        text = handle.read()
    if text.strip():
        try:
            config = json.loads(text)
        except json.JSONDecodeError as error:
            sys.exit(f"{path} is not valid JSON ({error}); fix it by hand, then rerun scripts/setup.sh --with-gvisor")
if not isinstance(config, dict):
    sys.exit(f"{path}: expected a JSON object at the top level")
wanted = {"path": os.environ["RUNSC_PATH"], "runtimeArgs": ["--network=none"]}
runtimes = config.setdefault("runtimes", {})
if runtimes.get(os.environ["RUNTIME_NAME"]) == wanted:
    print("unchanged")
    sys.exit(0)
runtimes[os.environ["RUNTIME_NAME"]] = wanted
os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
temporary = path + ".agentbench-tmp"
with open(temporary, "w") as handle:
    json.dump(config, handle, indent=2)
    handle.write("\n")
os.replace(temporary, path)
print("changed")
PY
)"

is_registered() { docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q "\"$runtime_name\""; }

if [ "$merge_result" = changed ] || ! is_registered; then
  dockerd_pid="$(pidof dockerd || true)"
  [ -n "$dockerd_pid" ] || { log "dockerd is not running: start it (scripts/setup.sh starts it), then rerun"; exit 1; }
  log "registering runtime $runtime_name in $daemon_json; reloading dockerd (SIGHUP)"
  as_root kill -HUP $dockerd_pid
  for _ in $(seq 1 30); do is_registered && break; sleep 1; done
  is_registered || { log "dockerd did not list runtime $runtime_name after SIGHUP; check $daemon_json and dockerd's log"; exit 1; }
fi
log "runtime $runtime_name ready ($runsc_path, --network=none)"
