#!/usr/bin/env bash
# One line a minute while CI's tests run (read by scripts/ci-diagnostics.sh when they fail): when the
# engine slowed down or stopped answering shows beside the load, memory and disk of that minute.
# Usage: scripts/ci-monitor.sh LOG   (runs until killed)
set -u
log="$1"
while true; do
  started=$(date +%s%N)
  if timeout 10 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; then
    engine="docker $(( ($(date +%s%N) - started) / 1000000 )) ms"
  else
    engine="docker NOT ANSWERING within 10 s"
  fi
  managed=$(timeout 10 docker ps -aq --filter label=dev.agentbench.managed=true 2>/dev/null | wc -l)
  printf '%s load %s mem-free %s MB disk-free %s %s, %s managed\n' \
    "$(date +%T)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(free -m | awk '/^Mem:/ {print $7}')" \
    "$(df -h --output=avail / | tail -n 1 | tr -d ' ')" "$engine" "$managed" >>"$log"
  sleep 60
done
