import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** CPU time counters summed over every core of the host (ms); the idle share of a difference of two is the idle CPU between them. */
export interface CpuTimes {
  idle: number;
  total: number;
}

/** The host's CPU counters now, summed over its cores (os.cpus(), in ms). */
export function hostCpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    idle += cpu.times.idle;
    total += cpu.times.idle + cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq;
  }
  return { idle, total };
}

/**
 * Runnable tasks on the host now, the reader included (/proc/stat `procs_running`): unlike the load
 * average, which lags by a minute, it shows at once that tasks wait for a CPU. Undefined off Linux.
 */
export function hostRunQueue(): number | undefined {
  try {
    const match = /^procs_running (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** Cores idle on average between two readings of `hostCpuTimes` (undefined when no time passed). */
export function idleCoresBetween(previous: CpuTimes, now: CpuTimes, cores: number): number | undefined {
  if (now.total <= previous.total) return undefined;
  return ((now.idle - previous.idle) / (now.total - previous.total)) * cores;
}
