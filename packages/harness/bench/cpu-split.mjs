// Where a run's CPU goes outside its sandboxes, for the benches (issue 26 item 3). Samples /proc every
// 200 ms while a run goes and sums, per group, the CPU seconds (utime + stime) each process used:
//   - engine daemons: dockerd and containerd, with the children they reaped (dockerd's re-execs: a new
//     network namespace's `set-ipv6`, a commit's `docker-untar`; the namespace's `libnetwork-setkey` hook
//     runs under runc, whose short processes are sampled alive only). Shared by every user of the engine (on this machine, the
//     other engineers too): `engineIdleRate()` is the same daemons' rate over a window before the run, the
//     same-run baseline to read it against.
//   - shims and runc: containerd-shim-runc-v2 and runc processes of this run's containers only, their own CPU (the
//     container id in their command line, its `dev.agentbench.pid` label read from the engine's
//     config.v2.json under /var/lib/docker/containers, which needs root; `unattributed` when it cannot be
//     read: not root, or the container was gone before its first sample, mostly other users' short ones).
//   - the harness: the run's own process (the CLI, or this one in-process) and, apart, its reaped
//     children (git, tar…: cutime + cstime).
// A process that ends between two samples loses at most its last 200 ms. Figures only: nothing here
// is trusted beyond a number, and a sandbox cannot write any of these files.
import { readdirSync, readFileSync } from 'node:fs';
import { machineBusySeconds } from '../../../scripts/bench-figures.mjs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const SAMPLE_MS = 200;
const CONTAINERS_DIR = '/var/lib/docker/containers';

/** utime, stime, cutime, cstime (fields 14–17 of /proc/PID/stat), in seconds; undefined once the process is gone. */
export function processCpu(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: count fields after its closing one.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map((value) => Number(value) / TICKS_PER_SECOND);
    return { own: utime + stime, children: cutime + cstime };
  } catch {
    return undefined;
  }
}

function commandOf(pid) {
  try {
    return { comm: readFileSync(`/proc/${pid}/comm`, 'utf8').trim(), cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8') };
  } catch {
    return undefined;
  }
}

function daemonPids() {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const command = commandOf(name);
    if (command !== undefined && (command.comm === 'dockerd' || command.comm === 'containerd')) pids.push(name);
  }
  return pids;
}

/**
 * The daemons' CPU and their reaped children's: dockerd re-executes itself per network namespace (`set-ipv6`)
 * and per layer (`docker-untar`), ~0.1–0.2 CPU-s each, and containerd runs each shim's `start`.
 * No container is among them: a shim is the init's child, not containerd's, and reaps its container.
 */
function daemonSeconds(pids) {
  return pids.reduce((sum, pid) => {
    const cpu = processCpu(pid);
    return sum + (cpu === undefined ? 0 : cpu.own + cpu.children);
  }, 0);
}

/** The daemons' CPU rate (cores) over `ms` with nothing of ours running: the engine's share of the others' load. */
export async function engineIdleRate(ms = 5000) {
  const pids = daemonPids();
  const before = daemonSeconds(pids);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (daemonSeconds(pids) - before) / (ms / 1000);
}

/**
 * Starts sampling. `harnessPid()` is the run's own process (a child's pid, or process.pid); `ownerPids`
 * the pids a container's `dev.agentbench.pid` label may name (the containers of this run). `stop()`
 * returns the seconds per group and the wall time.
 */
export function startCpuSplit({ harnessPid, ownerPids }) {
  const started = performance.now();
  const daemons = daemonPids();
  const daemonsBefore = daemonSeconds(daemons);
  const machineBefore = machineBusySeconds();
  const ownerOf = new Map(); // container id -> true when it is ours
  const seen = new Map(); // pid -> { first, last, group }
  let harness = { own: 0, children: 0 };
  let harnessBefore;
  let isFirstSample = true;

  const isOurs = (id) => {
    if (!ownerOf.has(id)) {
      try {
        const labels = JSON.parse(readFileSync(`${CONTAINERS_DIR}/${id}/config.v2.json`, 'utf8')).Config?.Labels ?? {};
        ownerOf.set(id, ownerPids().includes(String(labels['dev.agentbench.pid'])));
      } catch {
        return undefined; // not yet written, or not readable (not root): try again next sample
      }
    }
    return ownerOf.get(id);
  };

  const sample = () => {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const known = seen.get(name);
      if (known === undefined) {
        const command = commandOf(name);
        if (command === undefined || !(command.comm.startsWith('containerd-shim') || command.comm.startsWith('runc'))) continue;
        const id = /[0-9a-f]{64}/.exec(command.cmdline)?.[0];
        const ours = id === undefined ? undefined : isOurs(id);
        if (ours === false) continue;
        const cpu = processCpu(name);
        // A process older than the run counts only from here on; a new one from its start.
        // Own CPU only: a shim reaps its container's init, so its children's CPU is the container's (the cgroup line).
        if (cpu !== undefined) seen.set(name, { first: isFirstSample ? cpu.own : 0, last: cpu.own, id, group: ours === true ? 'shims' : 'unattributed' });
      } else {
        if (known.group === 'unattributed' && known.id !== undefined) {
          const ours = isOurs(known.id);
          if (ours === false) seen.delete(name);
          if (ours === true) known.group = 'shims';
        }
        const cpu = processCpu(name);
        if (cpu !== undefined) known.last = cpu.own;
      }
    }
    const cpu = processCpu(harnessPid());
    if (cpu !== undefined) {
      harnessBefore ??= cpu;
      harness = cpu;
    }
    isFirstSample = false;
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const wallSeconds = (performance.now() - started) / 1000;
      const sum = (group) => [...seen.values()].filter((entry) => entry.group === group).reduce((total, entry) => total + entry.last - entry.first, 0);
      const base = harnessPid() === String(process.pid) ? harnessBefore ?? { own: 0, children: 0 } : { own: 0, children: 0 };
      return {
        wallSeconds,
        engineDaemons: daemonSeconds(daemons) - daemonsBefore,
        shims: sum('shims'),
        unattributed: sum('unattributed'),
        harness: harness.own - base.own,
        harnessChildren: harness.children - base.children,
        machine: machineBusySeconds() - machineBefore,
      };
    },
  };
}
