import { availableParallelism, freemem } from 'node:os';
import { cpuWaitShare, hostCpuPressure, hostCpuTimes, hostRunQueue, idleCoresBetween, type CpuPressure, type CpuTimes } from '@agentbench/helpers';
import { abortableDelay } from './abortable-delay.js';
import { checkLimit } from './key-slots.js';
import type { AdmitContext } from './run-scheduled.js';

const MIB = 1024 * 1024;

/** The brake's window over PSI's `total`: at least 1 s (shorter is noise), at most 10 s (older is stale: the kernel's avg10 is used instead). */
const MIN_BRAKE_WINDOW_MS = 1000;
const MAX_BRAKE_WINDOW_MS = 10_000;
/** The brake holds, and growth by starts stops, only on CPU waiting this much above the share before the run's attempts (avg10 when -j auto began). */
const BRAKE_MARGIN = 0.1;

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
  /** Without CPU pressure (no PSI): a start is held while less than this many cores were idle since the previous look. Default 0.25. */
  minIdleCores?: number;
  /** The host's CPU pressure now (PSI), or undefined where the kernel has none. Default: /proc/pressure/cpu. */
  readCpuPressure?: () => CpuPressure | undefined;
  /**
   * The CPU brake: a start is held while some task waited for a CPU during more than this share of
   * the last 1–10 s, and more than `BRAKE_MARGIN` above the share when -j auto began (the waiting
   * other users of the machine caused, which fewer attempts of ours would not remove). Default 0.5.
   */
  maxWaitShare?: number;
  /**
   * Below this CPU wait share (or 10 points over the share when -j auto began, whichever is higher)
   * each item's start lets one more in at once; above it the limit grows only by one per throughput
   * window that ran at its limit. Default 0.2.
   */
  growWaitShare?: number;
  /** The host's CPU counters now. Default: os.cpus() summed. */
  readCpuTimes?: () => CpuTimes;
  /** Runnable tasks on the host now, the reader included (undefined: unknown). Default: /proc/stat. */
  readRunQueue?: () => number | undefined;
  /** Finished items per throughput window, at least the limit (the knee compares consecutive windows). Default 3. */
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

/**
 * One throughput window, as run.json's `auto.windows` shows it: when it closed (ms since -j auto
 * began), items finished per second, the time-weighted mean of items in flight, and the share of the
 * window during which some task waited for a CPU (null without PSI).
 */
export interface ThroughputWindow {
  atMs: number;
  perSecond: number;
  meanRunning: number;
  cpuWaitShare: number | null;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}


/**
 * `-j auto`: the scheduler's `admit` hook that finds the knee, the concurrency beyond which
 * throughput stops rising while CPU pressure rises. It starts at `initialJobs` and grows two ways:
 * while the CPU is free (tasks waited for a CPU less than `growWaitShare` of the last seconds, by the
 * kernel's PSI, or no more than 10 points over the waiting when -j auto began: other users' load that
 * fewer attempts would not lift), each item's successful start (its first sandbox created) lets one more in, as fast
 * as the engine proves it works; once the CPU is contended, the limit grows by one per throughput
 * window (`throughputWindow` finished items, at least the limit) that ran at its limit, so consecutive
 * windows compare neighbouring concurrencies. A window at a higher mean concurrency that finished
 * less than `minGain` faster while the CPU waited more than in the window before marks the knee:
 * the limit falls back to the previous window's concurrency, never below the cores, and grows no more (`knee`). The same
 * gain-less window without more CPU waiting (a bottleneck elsewhere, or noise) only stops the
 * growth for that window. Starts are held while free memory is short, while the median of the
 * latest creates is more than twice the median of the first ones, while infrastructure failures rise,
 * and by the CPU brake: while some task waited for a CPU more than `maxWaitShare` of the last 1–10 s
 * and 10 points more than when -j auto began (PSI's `total` over the brake's own window; without
 * PSI, the run queue and the idle CPU). Never
 * above `maxJobs`, and never holding when nothing runs: one item at a time always makes progress.
 * docs/decisions.md, issue 26.
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
  /** The brake's reading of PSI: where its window starts, and the wait share of the last whole window. */
  #brakeMark: { pressure: CpuPressure; atMs: number } | undefined;
  #brakeShare = 0;
  /** The wait share when -j auto began (the kernel's avg10): the machine's other users' part. */
  readonly #startWaitShare: number;
  /** The current throughput window: its start, finished items, the integral of items in flight over time, PSI at its start. */
  #window: { startedAt: number; finished: number; runningMs: number; changedAt: number; pressure: CpuPressure | undefined };
  /** The window later ones are compared with: the last one that paid (or the first). */
  #reference: ThroughputWindow | undefined;
  readonly #windows: ThroughputWindow[] = [];
  readonly #startedAt: number;

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
      readCpuPressure: options.readCpuPressure ?? hostCpuPressure,
      maxWaitShare: options.maxWaitShare ?? 0.5,
      growWaitShare: options.growWaitShare ?? 0.2,
      throughputWindow: options.throughputWindow ?? 3,
      minGain: options.minGain ?? 0.05,
      now: options.now ?? (() => performance.now()),
    };
    this.#onLimitChange = options.onLimitChange;
    const now = this.#options.now();
    this.#startedAt = now;
    const pressure = this.#options.readCpuPressure();
    this.#startWaitShare = pressure === undefined ? 0 : pressure.avg10Percent / 100;
    this.#window = { startedAt: now, finished: 0, runningMs: 0, changedAt: now, pressure };
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

  /** The throughput windows closed so far, oldest first: what the knee was judged on. */
  get windows(): readonly ThroughputWindow[] {
    return this.#windows;
  }

  /**
   * A sandbox create took `ms`. A successful one is a latency sample; the first successful one of
   * an item (`isItemStart`, the default) also lets one more item in while the CPU is free.
   */
  createFinished(ms: number, isSuccess: boolean, report: CreateReport = {}): void {
    if (!isSuccess) return;
    if (this.#referenceMs.length < this.#options.referenceCreates) this.#referenceMs.push(ms);
    this.#createMs.push(ms);
    if (this.#createMs.length > this.#options.recentCreates) this.#createMs.shift();
    if (report.isItemStart === false || this.#knee !== undefined) return;
    const waitShare = this.#brakeWaitShare();
    if (waitShare === undefined || waitShare < Math.max(this.#options.growWaitShare, this.#startWaitShare + BRAKE_MARGIN)) this.#grow();
  }

  #grow(): void {
    this.#setLimit(Math.min(this.#knee ?? this.maxJobs, this.#limit + 1));
  }

  /** An admitted item ended. */
  itemFinished(isInfraFailure: boolean): void {
    this.#setRunning(Math.max(0, this.#running - 1));
    this.#window.finished += 1;
    if (this.#window.finished >= Math.max(this.#options.throughputWindow, this.#limit)) this.#closeWindow();
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

  /**
   * The share of the brake's window during which some task waited for a CPU (undefined without PSI).
   * The window runs from the previous reading at least 1 s back; a reading sooner than that keeps the
   * last share, and one more than 10 s later starts afresh from the kernel's own 10-second average.
   */
  #brakeWaitShare(): number | undefined {
    const pressure = this.#options.readCpuPressure();
    if (pressure === undefined) return undefined;
    const atMs = this.#options.now();
    const mark = this.#brakeMark;
    const elapsedMs = mark === undefined ? Number.POSITIVE_INFINITY : atMs - mark.atMs;
    if (elapsedMs < MIN_BRAKE_WINDOW_MS) return this.#brakeShare;
    this.#brakeShare = cpuWaitShare(elapsedMs > MAX_BRAKE_WINDOW_MS ? undefined : mark?.pressure, pressure, elapsedMs);
    this.#brakeMark = { pressure, atMs };
    return this.#brakeShare;
  }

  /**
   * The CPU brake: tasks waited for a CPU too long of the brake's window, and longer than before the
   * run began (on a machine others keep busy, fewer attempts of ours would not make them wait less,
   * only give this run a smaller share: the knee decides there); without PSI, tasks queue now or
   * too little was idle since the previous look.
   */
  #isCpuSaturated(): boolean {
    const waitShare = this.#brakeWaitShare();
    if (waitShare !== undefined) return waitShare > Math.max(this.#options.maxWaitShare, this.#startWaitShare + BRAKE_MARGIN);
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

  /**
   * Ends a throughput window. Against the reference window: a higher concurrency that did not pay
   * (less than `minGain` faster) while the CPU waited more marks the knee; one that did not pay
   * without more CPU waiting keeps the reference and the limit. Otherwise the window becomes the
   * reference, and when it ran at its limit, the limit grows by one.
   */
  #closeWindow(): void {
    const now = this.#options.now();
    this.#setRunning(this.#running);
    const elapsedMs = now - this.#window.startedAt;
    const pressure = this.#options.readCpuPressure();
    if (elapsedMs > 0) {
      const startPressure = this.#window.pressure;
      const waitShare = pressure === undefined || startPressure === undefined ? null : cpuWaitShare(startPressure, pressure, elapsedMs);
      const current: ThroughputWindow = { atMs: now - this.#startedAt, perSecond: (this.#window.finished * 1000) / elapsedMs, meanRunning: this.#window.runningMs / elapsedMs, cpuWaitShare: waitShare };
      this.#windows.push(current);
      this.#judge(current);
    }
    this.#window = { startedAt: now, finished: 0, runningMs: 0, changedAt: now, pressure };
  }

  #judge(current: ThroughputWindow): void {
    if (this.#knee !== undefined) return;
    const reference = this.#reference;
    const isHigher = reference !== undefined && current.meanRunning >= reference.meanRunning + 0.5;
    if (reference !== undefined && isHigher && current.perSecond < reference.perSecond * (1 + this.#options.minGain)) {
      const isWaitingMore = current.cpuWaitShare === null || reference.cpuWaitShare === null || current.cpuWaitShare > reference.cpuWaitShare;
      if (isWaitingMore) {
        // Never below the cores (or --max-jobs): fewer attempts than cores leaves a core idle whatever
        // the bottleneck, and a window at low concurrency can look fast on attempts started before it
        // (their finishes bunch): a quiet 100-task run took a window at 1.2 in flight, 34/min, for the
        // reference, set the knee at 1 and lost a sixth of its throughput for the rest of the run.
        this.#knee = Math.min(this.maxJobs, Math.max(this.#options.cores, Math.round(reference.meanRunning)));
        this.#setLimit(Math.min(this.#limit, this.#knee));
      }
      return;
    }
    this.#reference = current;
    if (current.meanRunning >= this.#limit - 0.5) this.#grow();
  }

  /** The scheduler's `admit`: waits while a start is held, then counts the item as running. */
  readonly admit = async (_item: unknown, context: AdmitContext): Promise<void> => {
    while (!context.signal.aborted && this.holdReason() !== undefined) await this.#options.sleep(this.#options.pollMs, context.signal);
    this.#setRunning(this.#running + 1);
  };
}
