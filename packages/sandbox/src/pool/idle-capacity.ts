import { availableParallelism } from 'node:os';
import { hostCpuTimes, hostRunQueue, idleCoresBetween, type CpuTimes } from '@agentbench/helpers';

/**
 * Whether the host has CPU to spare for a warm start now. A pool that warms while attempts wait for
 * the same cores makes the run slower than no pool (issue 26: 112 % of the cold run's wall time on
 * 2 cores), so a refill asks this first and waits while the host is busy.
 */
export interface IdleCapacity {
  /** Why a warm start should wait now ("run queue 3 on 2 cores"), or undefined when the host has idle CPU. */
  whyBusy(): string | undefined;
}

export interface HostIdleCapacityOptions {
  /** Cores of the host. Default `os.availableParallelism()`. */
  cores?: number;
  /** Busy while the idle CPU since the last look is below this many cores' worth. Default 0.5. */
  minIdleCores?: number;
  /** The host's CPU counters now. Default: os.cpus() summed. */
  readCpuTimes?: () => CpuTimes;
  /** Runnable tasks on the host now, the reader included, or undefined where it cannot be read. Default: /proc/stat. */
  readRunQueue?: () => number | undefined;
}

/**
 * The host's idle capacity from two signals that react within a second (the load average lags by a
 * minute): the run queue (more runnable tasks than cores, the reader aside, means something already
 * waits for a CPU) and the idle CPU time since the previous look (less than `minIdleCores` idle).
 * The first look has no interval yet and goes by the run queue alone.
 */
export class HostIdleCapacity implements IdleCapacity {
  private readonly cores: number;
  private readonly minIdleCores: number;
  private readonly readCpuTimes: () => CpuTimes;
  private readonly readRunQueue: () => number | undefined;
  private previous: CpuTimes | undefined;

  constructor(options: HostIdleCapacityOptions = {}) {
    this.cores = options.cores ?? availableParallelism();
    this.minIdleCores = options.minIdleCores ?? 0.5;
    this.readCpuTimes = options.readCpuTimes ?? hostCpuTimes;
    this.readRunQueue = options.readRunQueue ?? hostRunQueue;
  }

  whyBusy(): string | undefined {
    const runQueue = this.readRunQueue();
    // procs_running counts the process reading it.
    if (runQueue !== undefined && runQueue - 1 >= this.cores) return `run queue ${runQueue - 1} on ${this.cores} cores`;
    const now = this.readCpuTimes();
    const previous = this.previous;
    this.previous = now;
    const idleCores = previous === undefined ? undefined : idleCoresBetween(previous, now, this.cores);
    if (idleCores === undefined) return undefined;
    return idleCores < this.minIdleCores ? `${idleCores.toFixed(2)} of ${this.cores} cores idle` : undefined;
  }
}

/** Always idle: a pool that warms whenever it is short (the default of a bare SandboxPool, and tests). */
export const ALWAYS_IDLE: IdleCapacity = { whyBusy: () => undefined };
