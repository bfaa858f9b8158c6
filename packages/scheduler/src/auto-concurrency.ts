import { availableParallelism, freemem } from 'node:os';
import { hostCpuTimes, hostRunQueue, idleCoresBetween, type CpuTimes } from '@agentbench/helpers';
import { abortableDelay } from './abortable-delay.js';
import { checkLimit } from './key-slots.js';
import type { AdmitContext } from './run-scheduled.js';

const MIB = 1024 * 1024;

/** Free memory the host keeps besides the running items: 1 GiB. */
export const DEFAULT_MEMORY_FLOOR_BYTES = 1024 * MIB;
/** Free memory each running item is expected to take: 512 MiB (a sandbox with its test run, the agent's process share). */
export const DEFAULT_MEMORY_PER_ITEM_BYTES = 512 * MIB;

export interface AutoConcurrencyOptions {
  /** Never more items in flight than this (`--max-jobs`). */
  maxJobs: number;
  /** Items admitted before any has started well. Default 2 (at most `maxJobs`). */
  initialJobs?: number;
  /** A start is held while free memory is below `memoryFloorBytes + memoryPerItemBytes × running`. */
  memoryFloorBytes?: number;
  memoryPerItemBytes?: number;
  /** Free memory of the host now, in bytes. Default `os.freemem()` (MemAvailable on Linux). */
  readFreeMemory?: () => number;
  /** The first creates whose median is the reference latency. Default 4. */
  referenceCreates?: number;
  /** The latest creates compared with the reference. Default 4. */
  recentCreates?: number;
  /** Finished items per window when comparing infrastructure failures. Default 8. */
  failureWindow?: number;
  /** How long a held start waits before looking again. Default 500 ms. */
  pollMs?: number;
  /** Waits `ms` or until the signal aborts; injectable so tests need no clock. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Cores of the host. Default `os.availableParallelism()`. */
  cores?: number;
  /** A start is held while less than this many cores were idle since the previous look. Default 0.25. */
  minIdleCores?: number;
  /** The host's CPU counters now. Default: os.cpus() summed. */
  readCpuTimes?: () => CpuTimes;
  /** Runnable tasks on the host now, the reader included (undefined: unknown). Default: /proc/stat. */
  readRunQueue?: () => number | undefined;
  /** Finished items per throughput window (the knee compares consecutive windows). Default 6. */
  throughputWindow?: number;
  /** A window must finish at least this much faster than the one before to justify its higher concurrency. Default 0.05 (5 %). */
  minGain?: number;
  /** Milliseconds now, for the throughput windows. Default `performance.now()`. */
  now?: () => number;
  /** Told each new limit (growth, the knee), e.g. so the warm pool's size follows it (`pool.setSize(2 × limit)`). */
  onLimitChange?: (limit: number) => void;
}

/** What a create was for. */
export interface CreateReport {
  /**
   * The first successful create of its admitted item (default true): only that one lets one more
   * item in, so an item that makes several sandboxes (an agent's, then its verdict's) still grows
   * the limit by one. Every successful create is a latency sample either way.
   */
  isItemStart?: boolean;
}

/** Why a start is held now, for progress lines. */
export type HoldReason = 'limit' | 'memory' | 'create-latency' | 'infra-failures' | 'cpu';

/** One throughput window: items finished per second, at a time-weighted mean of items in flight. */
interface ThroughputWindow {
  perSecond: number;
  meanRunning: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}


/**
 * `-j auto`: the scheduler's `admit` hook that finds the knee, the concurrency past which more items
 * in flight stop finishing faster. It starts at `initialJobs`, allows one more item after each
 * item's successful start (its first sandbox created), and holds new starts while free memory is
 * short, while the median of the latest creates is more than twice the median of the first ones,
 * while infrastructure failures rise (more in the latest window of finished items than in the one
 * before), or while the CPU is saturated (tasks already wait in the host's run queue, or less than
 * `minIdleCores` was idle since the previous look). Every `throughputWindow` finished items it
 * compares the window's throughput with the previous one's: when the window ran at a higher mean
 * concurrency but finished less than `minGain` faster, the knee is passed, and the limit falls back
 * to the previous window's concurrency and grows no more (`knee`). Never above `maxJobs`, and never
 * holding when nothing runs: one item at a time always makes progress. docs/decisions.md, issue 26.
 *
 * The caller reports what happens: `itemFinished` when an admitted item ends (with whether it
 * failed on infrastructure), `createFinished` for each sandbox create, saying whether it was
 * the item's first successful one (`isItemStart`).
 */
export class AutoConcurrency {
  readonly maxJobs: number;
  #limit: number;
  #running = 0;
  readonly #createMs: number[] = [];
  readonly #referenceMs: number[] = [];
  readonly #outcomes: boolean[] = [];
  readonly #options: Required<Omit<AutoConcurrencyOptions, 'maxJobs' | 'initialJobs' | 'onLimitChange'>>;
  readonly #onLimitChange: ((limit: number) => void) | undefined;
  #knee: number | undefined;
  #previousCpu: CpuTimes | undefined;
  /** The current throughput window: its start, finished items, and the integral of items in flight over time. */
  #window = { startedAt: 0, finished: 0, runningMs: 0, changedAt: 0 };
  #lastWindow: ThroughputWindow | undefined;

  constructor(options: AutoConcurrencyOptions) {
    checkLimit(options.maxJobs, 'maxJobs');
    const initial = options.initialJobs ?? 2;
    checkLimit(initial, 'initialJobs');
    this.maxJobs = options.maxJobs;
    this.#limit = Math.min(initial, options.maxJobs);
    this.#options = {
      memoryFloorBytes: options.memoryFloorBytes ?? DEFAULT_MEMORY_FLOOR_BYTES,
      memoryPerItemBytes: options.memoryPerItemBytes ?? DEFAULT_MEMORY_PER_ITEM_BYTES,
      readFreeMemory: options.readFreeMemory ?? freemem,
      referenceCreates: options.referenceCreates ?? 4,
      recentCreates: options.recentCreates ?? 4,
      failureWindow: options.failureWindow ?? 8,
      pollMs: options.pollMs ?? 500,
      sleep: options.sleep ?? abortableDelay,
      cores: options.cores ?? availableParallelism(),
      minIdleCores: options.minIdleCores ?? 0.25,
      readCpuTimes: options.readCpuTimes ?? hostCpuTimes,
      readRunQueue: options.readRunQueue ?? hostRunQueue,
      throughputWindow: options.throughputWindow ?? 6,
      minGain: options.minGain ?? 0.05,
      now: options.now ?? (() => performance.now()),
    };
    this.#onLimitChange = options.onLimitChange;
    const now = this.#options.now();
    this.#window = { startedAt: now, finished: 0, runningMs: 0, changedAt: now };
  }

  #setLimit(limit: number): void {
    if (limit === this.#limit) return;
    this.#limit = limit;
    this.#onLimitChange?.(limit);
  }

  /** The concurrency the knee was found at (the limit grows no more), or undefined while still growing. */
  get knee(): number | undefined {
    return this.#knee;
  }

  /** Items allowed in flight now. */
  get limit(): number {
    return this.#limit;
  }

  /** Admitted items not yet finished. */
  get running(): number {
    return this.#running;
  }

  /**
   * A sandbox create took `ms`. A successful one is a latency sample; the first successful one of
   * an item (`isItemStart`, the default) also lets one more item in.
   */
  createFinished(ms: number, isSuccess: boolean, report: CreateReport = {}): void {
    if (!isSuccess) return;
    if (this.#referenceMs.length < this.#options.referenceCreates) this.#referenceMs.push(ms);
    this.#createMs.push(ms);
    if (this.#createMs.length > this.#options.recentCreates) this.#createMs.shift();
    if (report.isItemStart !== false) this.#setLimit(Math.min(this.#knee ?? this.maxJobs, this.#limit + 1));
  }

  /** An admitted item ended. */
  itemFinished(isInfraFailure: boolean): void {
    this.#setRunning(Math.max(0, this.#running - 1));
    this.#window.finished += 1;
    if (this.#window.finished >= this.#options.throughputWindow) this.#closeWindow();
    this.#outcomes.push(isInfraFailure);
    if (this.#outcomes.length > 2 * this.#options.failureWindow) this.#outcomes.shift();
  }

  /** Why a new start would be held now; undefined when it may go. */
  holdReason(): HoldReason | undefined {
    if (this.#running === 0) return undefined;
    if (this.#running >= this.#limit) return 'limit';
    const needed = this.#options.memoryFloorBytes + this.#options.memoryPerItemBytes * this.#running;
    if (this.#options.readFreeMemory() < needed) return 'memory';
    if (this.#referenceMs.length >= this.#options.referenceCreates && this.#createMs.length >= this.#options.recentCreates) {
      if (median(this.#createMs) > 2 * median(this.#referenceMs)) return 'create-latency';
    }
    const window = this.#options.failureWindow;
    if (this.#outcomes.length > window) {
      const latest = this.#outcomes.slice(-window).filter(Boolean).length;
      const before = this.#outcomes.slice(0, -window).slice(-window).filter(Boolean).length;
      if (latest > before) return 'infra-failures';
    }
    return this.#isCpuSaturated() ? 'cpu' : undefined;
  }

  /** Tasks wait for a CPU now, or too little was idle since the previous look (the first look goes by the run queue). */
  #isCpuSaturated(): boolean {
    const { cores } = this.#options;
    const runQueue = this.#options.readRunQueue();
    // procs_running counts the reader: more than `cores` others means some wait.
    if (runQueue !== undefined && runQueue - 1 > cores) return true;
    const now = this.#options.readCpuTimes();
    const previous = this.#previousCpu;
    this.#previousCpu = now;
    const idleCores = previous === undefined ? undefined : idleCoresBetween(previous, now, cores);
    return idleCores !== undefined && idleCores < this.#options.minIdleCores;
  }

  #setRunning(running: number): void {
    const now = this.#options.now();
    this.#window.runningMs += this.#running * (now - this.#window.changedAt);
    this.#window.changedAt = now;
    this.#running = running;
  }

  /** Ends a throughput window: a higher concurrency that did not pay (less than `minGain` faster) marks the knee. */
  #closeWindow(): void {
    const now = this.#options.now();
    this.#setRunning(this.#running);
    const elapsedMs = now - this.#window.startedAt;
    if (elapsedMs > 0) {
      const current: ThroughputWindow = { perSecond: (this.#window.finished * 1000) / elapsedMs, meanRunning: this.#window.runningMs / elapsedMs };
      const previous = this.#lastWindow;
      if (this.#knee === undefined && previous !== undefined && current.meanRunning >= previous.meanRunning + 0.5 && current.perSecond < previous.perSecond * (1 + this.#options.minGain)) {
        this.#knee = Math.max(1, Math.round(previous.meanRunning));
        this.#setLimit(Math.min(this.#limit, this.#knee));
      }
      this.#lastWindow = current;
    }
    this.#window = { startedAt: now, finished: 0, runningMs: 0, changedAt: now };
  }

  /** The scheduler's `admit`: waits while a start is held, then counts the item as running. */
  readonly admit = async (_item: unknown, context: AdmitContext): Promise<void> => {
    while (!context.signal.aborted && this.holdReason() !== undefined) await this.#options.sleep(this.#options.pollMs, context.signal);
    this.#setRunning(this.#running + 1);
  };
}
