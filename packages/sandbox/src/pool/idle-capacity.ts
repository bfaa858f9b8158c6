import { availableParallelism } from 'node:os';
import { cpuWaitShare, hostCpuPressure, hostCpuTimes, hostRunQueue, idleCoresBetween, type CpuPressure, type CpuTimes } from '@agentbench/helpers';

/**
 * Whether the host has CPU to spare for a warm start now. A pool that warms while attempts wait for
 * the same cores makes the run slower than no pool (issue 26: 112 % of the cold run's wall time on
 * 2 cores), so a refill asks this first and waits while the host is busy.
 */
export interface IdleCapacity {
  /** Why a warm start should wait now ("tasks waited for a CPU 83 % of the last 0.25 s"), or undefined when the host has idle CPU. */
  whyBusy(): string | undefined;
}

export interface HostIdleCapacityOptions {
  /** Busy while some task waited for a CPU during more than this share of the window since the previous look. Default 0.5. */
  maxWaitShare?: number;
  /** The host's CPU pressure now, or undefined where the kernel has none (no PSI). Default: /proc/pressure/cpu. */
  readCpuPressure?: () => CpuPressure | undefined;
  /** Milliseconds on a monotonic clock, the window's measure. Default `performance.now()`. */
  now?: () => number;
  /** Without CPU pressure: cores of the host. Default `os.availableParallelism()`. */
  cores?: number;
  /** Without CPU pressure: busy while the idle CPU since the last look is below this many cores' worth. Default 0.5. */
  minIdleCores?: number;
  /** Without CPU pressure: the host's CPU counters now. Default: os.cpus() summed. */
  readCpuTimes?: () => CpuTimes;
  /** Without CPU pressure: runnable tasks on the host now, the reader included, or undefined where it cannot be read. Default: /proc/stat. */
  readRunQueue?: () => number | undefined;
}

/**
 * The host's idle capacity, judged by whether tasks wait for a CPU: the kernel's CPU pressure over
 * the window since the previous look (the first look: its 10-second average). Busy while some task
 * waited for a CPU during more than `maxWaitShare` of the window. Cores that are all in use are not
 * "busy" by this test as long as nothing queues for them: a warm start is mostly the engine's latency
 * (dockerd, containerd, runc), which overlaps with attempts that use the cores without waiting.
 * The idle-cores test used before held every start back while a run's own two attempts kept two
 * cores busy, and so never warmed in the run it was meant to speed up (issue 26).
 * Without PSI (an old kernel, not Linux) it falls back to the run queue (more runnable tasks than
 * cores, the reader aside) and the idle CPU since the previous look (less than `minIdleCores`).
 */
export class HostIdleCapacity implements IdleCapacity {
  private readonly maxWaitShare: number;
  private readonly readCpuPressure: () => CpuPressure | undefined;
  private readonly now: () => number;
  private readonly cores: number;
  private readonly minIdleCores: number;
  private readonly readCpuTimes: () => CpuTimes;
  private readonly readRunQueue: () => number | undefined;
  private previousPressure: { pressure: CpuPressure; atMs: number } | undefined;
  private previousTimes: CpuTimes | undefined;

  constructor(options: HostIdleCapacityOptions = {}) {
    this.maxWaitShare = options.maxWaitShare ?? 0.5;
    this.readCpuPressure = options.readCpuPressure ?? hostCpuPressure;
    this.now = options.now ?? (() => performance.now());
    this.cores = options.cores ?? availableParallelism();
    this.minIdleCores = options.minIdleCores ?? 0.5;
    this.readCpuTimes = options.readCpuTimes ?? hostCpuTimes;
    this.readRunQueue = options.readRunQueue ?? hostRunQueue;
  }

  whyBusy(): string | undefined {
    const pressure = this.readCpuPressure();
    if (pressure === undefined) return this.whyBusyWithoutPressure();
    const atMs = this.now();
    const previous = this.previousPressure;
    this.previousPressure = { pressure, atMs };
    const windowMs = previous === undefined ? 0 : atMs - previous.atMs;
    const waitShare = cpuWaitShare(previous?.pressure, pressure, windowMs);
    const window = windowMs > 0 ? `the last ${(windowMs / 1000).toFixed(2)} s` : 'the last 10 s';
    return waitShare > this.maxWaitShare ? `tasks waited for a CPU ${Math.round(waitShare * 100)} % of ${window}` : undefined;
  }

  private whyBusyWithoutPressure(): string | undefined {
    const runQueue = this.readRunQueue();
    // procs_running counts the process reading it.
    if (runQueue !== undefined && runQueue - 1 >= this.cores) return `run queue ${runQueue - 1} on ${this.cores} cores`;
    const now = this.readCpuTimes();
    const previous = this.previousTimes;
    this.previousTimes = now;
    const idleCores = previous === undefined ? undefined : idleCoresBetween(previous, now, this.cores);
    if (idleCores === undefined) return undefined;
    return idleCores < this.minIdleCores ? `${idleCores.toFixed(2)} of ${this.cores} cores idle` : undefined;
  }
}

/** Always idle: a pool that warms whenever it is short (the default of a bare SandboxPool, and tests). */
export const ALWAYS_IDLE: IdleCapacity = { whyBusy: () => undefined };
