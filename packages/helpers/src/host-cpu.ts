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

/** The kernel's CPU pressure (/proc/pressure/cpu, "some" line): the share of time at least one runnable task waited for a CPU. */
export interface CpuPressure {
  /** Microseconds during which some task waited, since boot (`total=`). */
  waitedMicros: number;
  /** The same share averaged over the last 10 s, in % (`avg10=`): the first look's window. */
  avg10Percent: number;
}

/** /proc/pressure/cpu's "some" line; undefined without PSI (not Linux, a kernel before 4.20, or PSI off). */
export function hostCpuPressure(): CpuPressure | undefined {
  try {
    const match = /^some avg10=([\d.]+) .*total=(\d+)$/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return match === null ? undefined : { avg10Percent: Number(match[1]), waitedMicros: Number(match[2]) };
  } catch {
    return undefined;
  }
}

/**
 * The share of a window (0 to 1) during which some task waited for a CPU: the growth of PSI's `total`
 * between two readings `windowMs` apart; without a window (no earlier reading, or no time passed),
 * the kernel's own 10-second average.
 */
export function cpuWaitShare(previous: CpuPressure | undefined, now: CpuPressure, windowMs: number): number {
  if (previous === undefined || windowMs <= 0) return now.avg10Percent / 100;
  return Math.min(1, Math.max(0, (now.waitedMicros - previous.waitedMicros) / 1000 / windowMs));
}
