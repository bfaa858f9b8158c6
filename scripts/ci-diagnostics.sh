#!/usr/bin/env bash
# What CI prints when its tests fail or run out of time: the machine, the Docker engine and what
# AgentBench left running, every probe bounded (a stuck engine must not stop the report).
# Usage: scripts/ci-diagnostics.sh [MONITOR_LOG]   (MONITOR_LOG: the per-minute samples of scripts/ci-monitor.sh)
set -u
section() { printf '\n[diagnostics] %s\n' "$*"; }
bounded() { timeout 15 "$@" 2>&1 || echo "(exit $?: $*)"; }

if [ -n "${1:-}" ] && [ -f "$1" ]; then
  section "per-minute samples during the tests (time, load, free memory, free disk, docker version latency, managed containers)"
  tail -n 120 "$1"
fi
section "disk and memory"
bounded df -h / /tmp /var/lib/docker
bounded free -m
section "docker engine"
bounded docker version --format 'server {{.Server.Version}}'
bounded docker ps -a --filter label=dev.agentbench.managed=true --format '{{.ID}} {{.Names}} {{.Status}} {{.Label "dev.agentbench.task-id"}} {{.Label "dev.agentbench.pid"}}'
section "dockerd log (last 25 lines)"
tail -n 25 /tmp/agentbench-dockerd.log 2>/dev/null
section "second engines made by tests (network namespaces, folders, their dockerd logs)"
bounded ip netns list
for log in /tmp/ab-second-engine-*/dockerd.log; do
  [ -f "$log" ] || continue
  echo "--- $log"
  tail -n 30 "$log"
done
section "processes by CPU"
ps -eo pid,ppid,stat,pcpu,rss,etime,args --sort=-pcpu | cut -c1-220 | head -n 25
section "engine and test processes"
ps -eo pid,ppid,stat,etime,args | grep -E 'dockerd|containerd|runsc|vitest|node .*ab|git ' | grep -v grep | cut -c1-220 | head -n 60
