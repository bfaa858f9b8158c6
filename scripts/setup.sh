#!/usr/bin/env bash
# Brings a fresh Debian machine to a working AgentBench: pnpm, dependencies, build,
# fixture repositories, Docker engine, bubblewrap, ripgrep and the offline runner image.
# Idempotent: a second run only checks and is quick.
# Usage: scripts/setup.sh [--no-docker] [--with-test-tools] [--with-gvisor]
#   --with-test-tools  also installs what the tests and `pnpm bench --quick` use (Debian's chromium, xmllint, GNU time, chattr)
#   --with-gvisor      also installs gVisor (Debian's runsc) and registers it with dockerd as the
#                      runtime "runsc", without network (scripts/setup-gvisor.sh; SIGHUP, no restart)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

want_docker=1
want_test_tools=0
want_gvisor=0
for argument in "$@"; do
  case "$argument" in
    --no-docker) want_docker=0 ;;
    --with-test-tools) want_test_tools=1 ;;
    --with-gvisor) want_gvisor=1 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option $argument (see --help)" >&2; exit 2 ;;
  esac
done

log() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# 1. System packages (Debian's): the engine, the daemonless sandbox, search and the image builder.
missing=()
command -v git >/dev/null || missing+=(git)
command -v rg >/dev/null || missing+=(ripgrep)
command -v bwrap >/dev/null || missing+=(bubblewrap)
if [ "$want_docker" = 1 ]; then
  command -v dockerd >/dev/null || missing+=(docker.io)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
fi
if [ "$want_test_tools" = 1 ]; then
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v xmllint >/dev/null || missing+=(libxml2-utils)
  # GNU time (the bad-inputs bench) and chattr (the kept-workspace sanitiser's immutable-file test).
  [ -x /usr/bin/time ] || missing+=(time)
  command -v chattr >/dev/null || missing+=(e2fsprogs)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]} from apt"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 2. pnpm (corepack's signature check fails offline; npm works).
if ! command -v pnpm >/dev/null || [ "$(pnpm --version | cut -d. -f1)" != 10 ]; then
  log "installing pnpm 10"
  npm install -g pnpm@10 >/dev/null
fi

# 3. Docker engine: start dockerd in the background when nothing answers.
if [ "$want_docker" = 1 ]; then
  if ! docker info >/dev/null 2>&1; then
    log "starting dockerd (log: /tmp/agentbench-dockerd.log)"
    as_root sh -c 'nohup dockerd >/tmp/agentbench-dockerd.log 2>&1 &'
    for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
    docker info >/dev/null 2>&1 || { log "dockerd did not come up; see /tmp/agentbench-dockerd.log"; exit 1; }
  fi
  # gVisor: `--runtime runsc` and task environment.runtime (registered by a reload, never a restart).
  if [ "$want_gvisor" = 1 ]; then bash scripts/setup-gvisor.sh; fi
fi

# 4. Dependencies, the fixture git repositories, build.
log "installing dependencies"
pnpm install --frozen-lockfile --reporter=silent
node scripts/build-fixture-repos.mjs --quiet
log "building packages"
pnpm -s build >/tmp/agentbench-build.log 2>&1 || { tail -n 40 /tmp/agentbench-build.log; exit 1; }

# 5. The runner image, built without any registry.
if [ "$want_docker" = 1 ]; then
  bash docker/py-runner/build-offline.sh
fi
log "ready"
