import { SchedulerError } from './errors/scheduler-error.js';

/** What the scheduler reads to limit items in flight per key. */
export interface KeyLimits {
  /** In flight at once for every key. Default: only the overall concurrency limits. */
  limitPerKey?: number;
  /** Limits of single keys; a key listed here ignores `limitPerKey`. */
  limitsByKey?: ReadonlyMap<string, number>;
}

/** Throws a SchedulerError naming the option unless `value` is a whole number ≥ 1. */
export function checkLimit(value: number, field: string): void {
  if (!Number.isInteger(value) || value < 1) throw new SchedulerError(field, `expected a whole number ≥ 1, found ${String(value)}`);
}

/** Counts the items in flight per key against their limits. */
export class KeySlots {
  readonly #inFlight = new Map<string, number>();
  readonly #limits: KeyLimits;

  constructor(limits: KeyLimits) {
    if (limits.limitPerKey !== undefined) checkLimit(limits.limitPerKey, 'limitPerKey');
    for (const [key, limit] of limits.limitsByKey ?? []) checkLimit(limit, `limitsByKey.${key}`);
    this.#limits = limits;
  }

  limitOf(key: string): number {
    return this.#limits.limitsByKey?.get(key) ?? this.#limits.limitPerKey ?? Number.POSITIVE_INFINITY;
  }

  inFlight(key: string): number {
    return this.#inFlight.get(key) ?? 0;
  }

  hasRoom(key: string): boolean {
    return this.inFlight(key) < this.limitOf(key);
  }

  take(key: string): void {
    this.#inFlight.set(key, this.inFlight(key) + 1);
  }

  release(key: string): void {
    const left = this.inFlight(key) - 1;
    if (left > 0) this.#inFlight.set(key, left);
    else this.#inFlight.delete(key);
  }
}
