import { ulid } from 'ulid';
import { SandboxError } from '../contract/sandbox-error.js';
import { POOL_SANDBOX_ROLE } from '../core/engine/labels.js';
import type { Sandbox, SandboxSpec } from '../contract/sandbox.js';
import { ALWAYS_IDLE, type IdleCapacity } from './idle-capacity.js';
import type { PoolKey } from './pool-key.js';
import type { WarmSandboxSource } from './warm-sandbox-source.js';

/** Warm sandboxes a pool keeps at most when `size` is not given. */
export const DEFAULT_POOL_SIZE = 2;

export interface SandboxPoolOptions {
  /** Warm sandboxes kept at most, over all keys (a key is refilled up to it). Default 2; 0 keeps none (every take is cold). */
  size?: number;
  /** Memory the warm sandboxes may hold together (each counts its source's `memoryBytes`, e.g. its memory limit). Default: unbounded beyond `size`. */
  maxMemoryBytes?: number;
  /** Labels of the warm sandboxes, spelled as in SandboxSpec.labels (e.g. `{ runId }`), besides the pool's own. */
  labels?: Record<string, string>;
  /** Debug-level notes: a take served cold and why, a refill held back by a bound. Default: dropped. */
  onDebug?: (message: string) => void;
  /** The pool's id, on its sandboxes' `dev.agentbench.pool` label. Default: a new ULID. */
  id?: string;
  /**
   * Asked before each background warm start: while it says the host is busy, the refill waits and
   * looks again every `recheckMs` (an explicit `warm()` or `warmAhead()` does not ask). Default: always
   * idle (the Docker pool's default is `HostIdleCapacity`: whether tasks wait for a CPU).
   */
  idleCapacity?: IdleCapacity;
  /** How often a refill held back by a busy host looks again, in ms. Default 250. */
  recheckMs?: number;
  /**
   * When the background refill after a take starts. `take` (the default): at once. `release`: when
   * the taken sandbox is disposed, for a caller (a run) whose next take comes only when an attempt
   * ends: a refill started at the take competes with that attempt's setup for the cores and is ready
   * long before anyone asks; started at the release, it overlaps the attempt's tail (its verdict,
   * its removals) and is ready about when the next attempt starts.
   */
  refillAfter?: 'take' | 'release';
}

/** Takes kept for `stats().recentTakeMs`: enough for a suite's median, bounded for a long-lived embedder. */
const RECENT_TAKES_KEPT = 1000;

/** What a pool handed out so far. */
export interface SandboxPoolStats {
  /** Takes served by a warm sandbox. */
  warmTakes: number;
  /** Takes created cold (nothing warm ready, or a spec the pool cannot serve warm). */
  coldTakes: number;
  /** Request → sandbox ready, in ms, of the last 1000 takes that succeeded (warm and cold), oldest first. */
  recentTakeMs: number[];
  /** Background warm starts held back because the host was busy (counted once per look that held). */
  heldStarts: number;
}

/** Warm starts whose median is the reference start latency. */
const REFERENCE_STARTS = 3;

/**
 * Started sandboxes kept warm (executor ready, empty workspace), handed out by `take` with the
 * spec's workspace put in. Keyed by what cannot change after a start (see `poolKeyOf`); bounded in
 * count and memory; refilled in the background after each take. A warm sandbox is handed out once
 * and never comes back. `take` never waits for a refill: with nothing warm it creates the sandbox
 * cold. A refill that fails is thrown by the next `take` of that key (a SandboxError, so the
 * attempt fails as an infrastructure failure). `dispose()` removes every warm sandbox.
 */
export class SandboxPool<Warm, Made extends Sandbox = Sandbox> implements AsyncDisposable {
  readonly id: string;
  private readonly source: WarmSandboxSource<Warm, Made>;
  private size: number;
  /** Takes still to come, when the caller knows (`expectTakes`); undefined: no bound beyond `size`. */
  private expectedTakes: number | undefined;
  private readonly idleCapacity: IdleCapacity;
  private readonly recheckMs: number;
  private readonly refillAfter: 'take' | 'release';
  /** Keys seen, so a refill held back (or a larger size) can refill them later. */
  private readonly keys = new Map<string, PoolKey>();
  private recheckTimer: NodeJS.Timeout | undefined;
  /** Warm-start latencies: the first ones (the reference) and the latest. */
  private readonly referenceStartMs: number[] = [];
  private latestStart: { ms: number; endedAt: number } | undefined;
  /** Removals of surplus warm sandboxes after a `setSize` that shrank the pool. */
  private readonly trimming = new Set<Promise<void>>();
  private readonly maxMemoryBytes: number;
  private readonly labels: Record<string, string>;
  private readonly onDebug: ((message: string) => void) | undefined;
  private readonly ready = new Map<string, Warm[]>();
  /** Starts under way, by key id. */
  private readonly starting = new Map<string, Set<Promise<void>>>();
  /** Starts under way that a take already waits for (each serves one take). */
  private readonly awaitedStarts = new Set<Promise<void>>();
  private readonly memoryOfKey = new Map<string, number>();
  private readonly refillFailures = new Map<string, SandboxError>();
  private readonly counts = { warmTakes: 0, coldTakes: 0, heldStarts: 0 };
  private readonly recentTakeMs: number[] = [];
  private isDisposed = false;

  constructor(source: WarmSandboxSource<Warm, Made>, options: SandboxPoolOptions = {}) {
    this.source = source;
    this.size = checkedSize(options.size ?? DEFAULT_POOL_SIZE, 'SandboxPoolOptions.size');
    this.idleCapacity = options.idleCapacity ?? ALWAYS_IDLE;
    this.recheckMs = options.recheckMs ?? 250;
    this.refillAfter = options.refillAfter ?? 'take';
    this.maxMemoryBytes = options.maxMemoryBytes ?? Number.POSITIVE_INFINITY;
    if (typeof this.maxMemoryBytes !== 'number' || Number.isNaN(this.maxMemoryBytes) || this.maxMemoryBytes < 0) {
      throw new SandboxError('invalid_spec', `SandboxPoolOptions.maxMemoryBytes: expected a number of bytes ≥ 0, found ${String(options.maxMemoryBytes)}`);
    }
    this.id = options.id ?? ulid().toLowerCase();
    this.labels = { ...options.labels, pool: this.id, role: POOL_SANDBOX_ROLE };
    this.onDebug = options.onDebug;
  }

  /** Warm sandboxes ready now: of `spec`'s key when given, else of all keys. */
  async readyCount(spec?: SandboxSpec): Promise<number> {
    if (spec === undefined) return [...this.ready.values()].reduce((total, list) => total + list.length, 0);
    const decision = await this.source.keyOf(spec);
    return decision.isPoolable ? (this.ready.get(decision.key.id)?.length ?? 0) : 0;
  }

  /** Warm sandboxes kept at most now (see `setSize`). */
  get maxSize(): number {
    return this.size;
  }

  /**
   * Follows the scheduler's concurrency: a run at -j N wants about two warm sandboxes per attempt in
   * flight (its own and its verdict's), so a caller whose concurrency changes (-j auto) or whose
   * attempts run out says so here. A larger size refills the keys seen so far (when the host is
   * idle); a smaller one removes the surplus warm sandboxes (oldest first), freeing their memory.
   */
  setSize(size: number): void {
    this.size = checkedSize(size, 'SandboxPool.setSize');
    this.removeSurplus();
    for (const key of this.keys.values()) this.refill(key);
  }

  /**
   * Says how many takes are still to come (a run's attempts not yet started), so refills never warm
   * beyond them: a warm sandbox nobody takes is pure cost, started while the last attempts need the
   * cores and removed at the end (issue 26: a run's pool made it slower). Each take counts one off;
   * warm sandboxes beyond the takes left are removed. `undefined`: no bound beyond the size.
   */
  expectTakes(count: number | undefined): void {
    this.expectedTakes = count === undefined ? undefined : checkedSize(count, 'SandboxPool.expectTakes');
    this.removeSurplus();
  }

  /** Warm sandboxes wanted now: the size, or fewer when fewer takes are to come. */
  private get target(): number {
    return this.expectedTakes === undefined ? this.size : Math.min(this.size, this.expectedTakes);
  }

  /** Removes warm sandboxes beyond the target (oldest first), freeing their memory. */
  private removeSurplus(): void {
    if (this.isDisposed) return;
    let surplus = this.totalCount() - this.target;
    for (const [keyId, list] of this.ready) {
      while (surplus > 0 && list.length > 0) {
        const warm = list.shift() as Warm;
        surplus -= 1;
        const removal: Promise<void> = this.source
          .disposeWarm(warm)
          .catch((error: unknown) => this.onDebug?.(`sandbox pool ${this.id}: could not remove a surplus warm sandbox of ${keyId}: ${String(error)}`))
          .finally(() => this.trimming.delete(removal));
        this.trimming.add(removal);
      }
    }
  }

  /** How many takes were warm and cold, and how long they took. */
  stats(): SandboxPoolStats {
    return { ...this.counts, recentTakeMs: [...this.recentTakeMs] };
  }

  /** Memory the warm sandboxes hold and those being started will hold (see `maxMemoryBytes`). */
  get heldMemoryBytes(): number {
    let total = 0;
    for (const [keyId, memory] of this.memoryOfKey) total += memory * (this.readyOf(keyId) + this.startingOf(keyId));
    return total;
  }

  /**
   * Fills the pool for `spec` and waits until the starts under way settle. Throws what made a
   * start fail (e.g. the engine is gone), so an embedder learns it before the first take.
   */
  async warm(spec: SandboxSpec = {}): Promise<void> {
    this.assertOpen();
    const decision = await this.source.keyOf(spec);
    if (!decision.isPoolable) throw new SandboxError('invalid_spec', `sandbox pool ${this.id}: this spec cannot be served warm: ${decision.reason}`);
    this.refill(decision.key, { isForced: true });
    await Promise.allSettled([...(this.starting.get(decision.key.id) ?? [])]);
    this.throwRefillFailure(decision.key.id);
  }

  /**
   * Starts at once, without asking the idle capacity, one warm sandbox for each of `specs` (in
   * order, while the pool is short of its size and of the takes to come): the specs of the first
   * takes, which a caller such as a run knows before it starts its attempts. Each start stands in for
   * the cold create its take would begin a moment later (a take waits for a start under way), so it
   * adds no work; begun while the run plans and clones, it takes the create off the first attempts'
   * path. Does not wait for the starts; one that fails is thrown by the next take of its key. A
   * spec that cannot be served warm is skipped (its take will be cold, with the reason).
   */
  async warmAhead(specs: readonly SandboxSpec[]): Promise<void> {
    this.assertOpen();
    for (const spec of specs) {
      const decision = await this.source.keyOf(spec);
      if (this.isDisposed || this.totalCount() >= this.target) return;
      if (!decision.isPoolable) {
        this.onDebug?.(`sandbox pool ${this.id}: not warming ahead: ${decision.reason}`);
        continue;
      }
      const { key } = decision;
      this.keys.set(key.id, key);
      const memory = this.source.memoryBytes(key);
      this.memoryOfKey.set(key.id, memory);
      if (this.heldMemoryBytes + memory > this.maxMemoryBytes) return;
      const starts = this.starting.get(key.id) ?? new Set<Promise<void>>();
      this.starting.set(key.id, starts);
      this.startOne(key, starts);
    }
  }

  /**
   * A sandbox for `spec`: a warm one with the workspace put in, or (nothing warm, or a spec that
   * cannot be served warm) one created cold. Refills the key in the background afterwards.
   */
  async take(spec: SandboxSpec = {}): Promise<Made> {
    this.assertOpen();
    const requested = performance.now();
    if (this.expectedTakes !== undefined && this.expectedTakes > 0) this.expectedTakes -= 1;
    const decision = await this.source.keyOf(spec);
    if (!decision.isPoolable) {
      this.onDebug?.(`sandbox pool ${this.id}: ${decision.reason}; creating the sandbox cold`);
      return this.counted('coldTakes', requested, await this.source.createCold(spec));
    }
    const { key } = decision;
    this.throwRefillFailure(key.id);
    const warm = this.ready.get(key.id)?.shift() ?? (await this.awaitStartUnderWay(key.id));
    let isHandedOut = false;
    try {
      if (warm === undefined) {
        this.onDebug?.(`sandbox pool ${this.id}: no warm sandbox ready for ${describeKey(key)}; creating one cold`);
        const made = this.counted('coldTakes', requested, await this.source.createCold(spec));
        isHandedOut = true;
        return this.refillingOnRelease(key, made);
      }
      try {
        const made = this.counted('warmTakes', requested, await this.source.claim(warm, spec));
        isHandedOut = true;
        return this.refillingOnRelease(key, made);
      } catch (error) {
        await this.source.disposeWarm(warm).catch(() => undefined);
        throw error;
      }
    } finally {
      // After the hand-out, so the next start does not compete with it; with `refillAfter: 'release'`,
      // when the taken sandbox is disposed (or now, when nothing was handed out).
      if (this.refillAfter === 'take' || !isHandedOut) this.refill(key);
    }
  }

  /** With `refillAfter: 'release'`: `sandbox` whose first `dispose()` starts the refill of `key`. */
  private refillingOnRelease(key: PoolKey, sandbox: Made): Made {
    if (this.refillAfter !== 'release') return sandbox;
    const dispose = sandbox.dispose.bind(sandbox);
    let isReleased = false;
    // An own property over the class's method: `Symbol.asyncDispose` and every caller go through it.
    Object.defineProperty(sandbox, 'dispose', {
      configurable: true,
      writable: true,
      value: (): Promise<void> => {
        if (!isReleased) {
          isReleased = true;
          this.refill(key);
        }
        return dispose();
      },
    });
    return sandbox;
  }

  /**
   * A warm start of `keyId` already under way and not promised to another take: waits for it and
   * takes what it made. Creating cold instead would start a second sandbox beside one nearly ready,
   * both competing for the same cores, and leave the warm one to nobody. Undefined when there is
   * none; throws what made it fail (as the next take would).
   */
  private async awaitStartUnderWay(keyId: string): Promise<Warm | undefined> {
    const start = [...(this.starting.get(keyId) ?? [])].find((candidate) => !this.awaitedStarts.has(candidate));
    if (start === undefined) return undefined;
    this.awaitedStarts.add(start);
    try {
      await start;
    } finally {
      this.awaitedStarts.delete(start);
    }
    this.throwRefillFailure(keyId);
    return this.ready.get(keyId)?.shift();
  }

  /** Stops refilling and removes every warm sandbox (those under way when they arrive). Sandboxes already taken are their takers'. */
  async dispose(): Promise<void> {
    this.isDisposed = true;
    clearTimeout(this.recheckTimer);
    await Promise.allSettled([...this.starting.values()].flatMap((starts) => [...starts]).concat([...this.trimming]));
    const warm = [...this.ready.values()].flat();
    this.ready.clear();
    const failure = (await Promise.allSettled(warm.map((sandbox) => this.source.disposeWarm(sandbox)))).find((outcome) => outcome.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  private counted(kind: 'warmTakes' | 'coldTakes', requested: number, sandbox: Made): Made {
    this.counts[kind] += 1;
    this.recentTakeMs.push(performance.now() - requested);
    if (this.recentTakeMs.length > RECENT_TAKES_KEPT) this.recentTakeMs.shift();
    return sandbox;
  }

  /**
   * Starts warm sandboxes for `key` up to the size, while the host has idle capacity (unless
   * `isForced`, an explicit `warm()`); held back, it looks again after `recheckMs`.
   */
  private refill(key: PoolKey, { isForced = false }: { isForced?: boolean } = {}): void {
    if (this.isDisposed || this.refillFailures.has(key.id)) return;
    this.keys.set(key.id, key);
    if (this.target === 0) return;
    const memory = this.source.memoryBytes(key);
    this.memoryOfKey.set(key.id, memory);
    const starts = this.starting.get(key.id) ?? new Set<Promise<void>>();
    this.starting.set(key.id, starts);
    while (this.readyOf(key.id) + starts.size < this.target && this.totalCount() < this.target) {
      if (this.heldMemoryBytes + memory > this.maxMemoryBytes) {
        this.onDebug?.(`sandbox pool ${this.id}: not starting another warm sandbox: ${this.heldMemoryBytes + memory} bytes would pass maxMemoryBytes ${this.maxMemoryBytes}`);
        return;
      }
      const busy = isForced ? undefined : this.whyBusy();
      if (busy !== undefined) {
        this.counts.heldStarts += 1;
        this.onDebug?.(`sandbox pool ${this.id}: not warming now: ${busy}`);
        this.recheckLater();
        return;
      }
      this.startOne(key, starts);
      // One background start per look: the next waits for the host to say again that it is idle.
      if (!isForced && this.idleCapacity !== ALWAYS_IDLE) {
        this.recheckLater();
        return;
      }
    }
  }

  /** Starts one warm sandbox for `key`; a failure is kept and thrown by the next take of the key. */
  private startOne(key: PoolKey, starts: Set<Promise<void>>): void {
    const startedAt = performance.now();
    const start: Promise<void> = this.source
      .startWarm(key, this.labels)
      .then(
        async (warm) => {
          this.recordStart(performance.now() - startedAt);
          // Disposed meanwhile: nobody will take it.
          if (this.isDisposed) return this.source.disposeWarm(warm);
          this.ready.set(key.id, [...(this.ready.get(key.id) ?? []), warm]);
        },
        (error: unknown) => {
          this.refillFailures.set(key.id, this.refillError(error));
        },
      )
      .catch(() => undefined)
      .finally(() => starts.delete(start));
    starts.add(start);
  }

  /**
   * Why a background start waits: the host is busy (see IdleCapacity), or the latest warm start took
   * more than twice the reference (the median of the first ones): the engine or the disk is the
   * bottleneck, so warming waits as long as that start took before trying again.
   */
  private whyBusy(): string | undefined {
    const latest = this.latestStart;
    if (latest !== undefined && this.referenceStartMs.length >= REFERENCE_STARTS) {
      const reference = median(this.referenceStartMs);
      if (latest.ms > 2 * reference && performance.now() - latest.endedAt < latest.ms) {
        return `the latest warm start took ${Math.round(latest.ms)} ms, more than twice the first ones' ${Math.round(reference)} ms`;
      }
    }
    return this.idleCapacity.whyBusy();
  }

  private recordStart(ms: number): void {
    if (this.referenceStartMs.length < REFERENCE_STARTS) this.referenceStartMs.push(ms);
    this.latestStart = { ms, endedAt: performance.now() };
  }

  /** One timer at a time; it does not keep the process alive. */
  private recheckLater(): void {
    if (this.recheckTimer !== undefined || this.isDisposed) return;
    this.recheckTimer = setTimeout(() => {
      this.recheckTimer = undefined;
      for (const key of this.keys.values()) this.refill(key);
    }, this.recheckMs);
    this.recheckTimer.unref();
  }

  /** Throws (once) the failure of the last refill of `keyId`; the next take refills again. */
  private throwRefillFailure(keyId: string): void {
    const failure = this.refillFailures.get(keyId);
    if (failure === undefined) return;
    this.refillFailures.delete(keyId);
    throw failure;
  }

  private refillError(error: unknown): SandboxError {
    const message = error instanceof Error ? error.message : String(error);
    const kind = SandboxError.isInstance(error) ? error.kind : 'internal';
    return new SandboxError(kind, `sandbox pool ${this.id} could not start a warm sandbox on ${this.source.description}: ${message}`, {
      subject: SandboxError.isInstance(error) && error.subject !== undefined ? error.subject : this.source.description,
      cause: error,
    });
  }

  private readyOf(keyId: string): number {
    return this.ready.get(keyId)?.length ?? 0;
  }

  private startingOf(keyId: string): number {
    return this.starting.get(keyId)?.size ?? 0;
  }

  private totalCount(): number {
    let total = 0;
    for (const list of this.ready.values()) total += list.length;
    for (const starts of this.starting.values()) total += starts.size;
    return total;
  }

  private assertOpen(): void {
    if (this.isDisposed) throw new SandboxError('sandbox_disposed', `sandbox pool ${this.id} was disposed`, { subject: this.id });
  }
}

function checkedSize(size: number, field: string): number {
  if (!Number.isInteger(size) || size < 0) throw new SandboxError('invalid_spec', `${field}: expected a whole number ≥ 0, found ${String(size)}`);
  return size;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function describeKey(key: PoolKey): string {
  const { image, limits, hasNetwork } = key.warmSpec;
  const parts = [`image ${image ?? '(default)'}`];
  if (limits !== undefined) parts.push(`limits ${JSON.stringify(limits)}`);
  parts.push(hasNetwork === true ? 'with network' : 'without network');
  return parts.join(', ');
}
