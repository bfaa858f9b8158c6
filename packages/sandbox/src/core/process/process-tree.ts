import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** One process as read from `/proc/<pid>/stat`. */
export interface ProcessInfo {
  pid: number;
  parentPid: number;
  processGroup: number;
  state: string;
  /** Start time in clock ticks since boot: with the pid, it names a process across pid reuse. */
  startTime: string;
}

/** Reads `/proc/<pid>/stat`, or undefined when the process is gone. */
export async function readProcess(pid: number): Promise<ProcessInfo | undefined> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return parseStat(pid, stat);
}

/** Every process visible in `/proc`. */
export async function readProcessTable(): Promise<ProcessInfo[]> {
  const names = await readdir('/proc');
  const reads = names.filter((name) => /^\d+$/.test(name)).map((name) => readProcess(Number(name)));
  return (await Promise.all(reads)).filter((info): info is ProcessInfo => info !== undefined);
}

function parseStat(pid: number, stat: string): ProcessInfo | undefined {
  // The command name sits in parentheses and may itself hold spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const parentPid = Number(fields[1]);
  const processGroup = Number(fields[2]);
  const startTime = fields[19];
  if (state === undefined || startTime === undefined || Number.isNaN(parentPid)) return undefined;
  return { pid, parentPid, processGroup, state, startTime };
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone, or not ours to signal: nothing left to do for it.
  }
}

/**
 * Kills a command's whole process tree: its process group and every descendant, including
 * those that left the group with setsid (a process group kill alone misses them), and,
 * when `environmentMarker` (`NAME=value`) is given, any process whose environment holds
 * it (daemons that double-forked away from the tree).
 * Everything is stopped first (SIGSTOP) while the tree is walked, so no process can fork
 * or be reparented away from us in the meantime; then everything gets SIGKILL.
 * Returns the processes it killed, for `waitForProcessesGone`.
 */
export async function killProcessTree(rootPid: number | undefined, environmentMarker?: string): Promise<ProcessInfo[]> {
  const known = new Map<number, ProcessInfo>();
  if (rootPid !== undefined) {
    const root = await readProcess(rootPid);
    if (root !== undefined) known.set(rootPid, root);
    signalQuietly(rootPid, 'SIGSTOP');
    signalQuietly(-rootPid, 'SIGSTOP');
  }
  // A stop is delivered asynchronously, so a process may fork once more after it was
  // signalled: sweep until two sweeps in a row find nothing new.
  let quietSweeps = 0;
  for (let sweep = 0; sweep < 1000 && quietSweeps < 2; sweep++) {
    const table = await readProcessTable();
    let found = 0;
    for (const info of table) {
      if (known.has(info.pid) || info.pid === process.pid) continue;
      const isRelated =
        known.has(info.parentPid) ||
        (rootPid !== undefined && info.processGroup === rootPid) ||
        (environmentMarker !== undefined && (await hasEnvironmentEntry(info.pid, environmentMarker)));
      if (isRelated) {
        known.set(info.pid, info);
        signalQuietly(info.pid, 'SIGSTOP');
        found++;
      }
    }
    quietSweeps = found === 0 ? quietSweeps + 1 : 0;
  }
  if (rootPid !== undefined) signalQuietly(-rootPid, 'SIGKILL');
  for (const pid of known.keys()) signalQuietly(pid, 'SIGKILL');
  return [...known.values()];
}

async function hasEnvironmentEntry(pid: number, entry: string): Promise<boolean> {
  try {
    const environment = await readFile(`/proc/${pid}/environ`);
    return environment.toString('utf8').split('\0').includes(entry);
  } catch {
    return false;
  }
}

/**
 * Waits until the given processes are gone (or are zombies about to be reaped), at most
 * `limitMs`. Lets a caller know the killed tree released its pids and memory before the
 * next command starts. Returns whether they all went.
 */
export async function waitForProcessesGone(processes: readonly ProcessInfo[], limitMs = 10_000): Promise<boolean> {
  let pending = [...processes];
  const deadline = Date.now() + limitMs;
  for (let round = 0; pending.length > 0; round++) {
    const alive: ProcessInfo[] = [];
    for (const info of pending) {
      const current = await readProcess(info.pid);
      if (current !== undefined && current.startTime === info.startTime && current.state !== 'Z' && current.state !== 'X') {
        alive.push(info);
      }
    }
    pending = alive;
    if (pending.length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(50, 2 + round * 2));
  }
  return true;
}
