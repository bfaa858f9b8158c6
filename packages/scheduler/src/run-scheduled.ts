import { checkLimit, KeySlots, type KeyLimits } from './key-slots.js';
import type { ScheduledOutcome } from './scheduled-outcome.js';
import type { ScheduleCounts, SchedulerEvent, StopCause } from './scheduler-event.js';

/** What `admit` is told about the start it may hold. */
export interface AdmitContext {
  /** The key the item counts under. */
  key: string;
  /** Items running now (not counting this one). */
  running: number;
  /** Aborted when the run stops; an `admit` that waits should stop waiting then. */
  signal: AbortSignal;
}

/** What the work function gets besides its item. */
export interface WorkContext {
  /** Aborted when the run is cancelled (the caller's signal, or `stopOnFailure`): pass it on to what the work runs. */
  signal: AbortSignal;
  /** The item's index in the items given to `runScheduled`. */
  index: number;
}

export interface ScheduleOptions<Item> extends KeyLimits {
  /** Items in flight at once. */
  concurrency: number;
  /** The key an item's per-key limit counts under (a provider, an engine). Default: one key for all, limited only by `concurrency`. */
  keyOf?: (item: Item) => string;
  /** Aborting it stops new starts; running work sees it through its own `signal`. */
  signal?: AbortSignal;
  /** The resume filter: an item it returns false for is skipped, never run. */
  shouldRun?: (item: Item, index: number) => boolean;
  /** A failing item stops new starts and aborts the running items' signal. Default false: a failure is its item's outcome and the others go on. */
  stopOnFailure?: boolean;
  /**
   * Called before each start, with the item's place (its concurrency slot and key slot) already
   * reserved; the start waits for it, and no other item starts meanwhile. The hook for holding
   * starts while a machine is short of memory. Throwing fails the item.
   */
  admit?: (item: Item, context: AdmitContext) => Promise<void> | void;
  /** Progress, in order. It should not throw: if it does, the run stops and `runScheduled` rejects with its error once running work has settled. */
  onEvent?: (event: SchedulerEvent<Item>) => void;
}

export interface ScheduleResult<Item, Result> {
  /** One per item, in the items' order. */
  outcomes: ScheduledOutcome<Item, Result>[];
  counts: ScheduleCounts;
  /** Set when the run stopped before every item had started or been skipped. */
  stopCause?: StopCause;
}

/**
 * Runs `work` on every item, at most `concurrency` at once and at most the key's limit per key,
 * starting items in their order (an item whose key is full waits while later ones go ahead).
 * Items the resume filter rejects are skipped. A work function that throws settles its own item
 * (`rejected`); the others go on unless `stopOnFailure`. Aborting `signal` stops new starts (the
 * items not started are `cancelled`) and reaches running work through its context's signal;
 * `runScheduled` resolves once every started item has settled, never before.
 */
export async function runScheduled<Item, Result>(
  items: readonly Item[],
  options: ScheduleOptions<Item>,
  work: (item: Item, context: WorkContext) => Promise<Result>,
): Promise<ScheduleResult<Item, Result>> {
  checkLimit(options.concurrency, 'concurrency');
  const slots = new KeySlots(options);
  const stopper = new AbortController();
  const signal = options.signal === undefined ? stopper.signal : AbortSignal.any([options.signal, stopper.signal]);
  const counts: ScheduleCounts = { total: items.length, queued: 0, running: 0, finished: 0, failed: 0, skipped: 0, cancelled: 0 };
  const outcomes: Array<ScheduledOutcome<Item, Result> | undefined> = new Array(items.length);
  let stopCause: StopCause | undefined;
  let callbackError: { error: unknown } | undefined;

  const emit = (event: SchedulerEvent<Item>): void => {
    if (options.onEvent === undefined) return;
    try {
      options.onEvent(event);
    } catch (error) {
      // The caller's bug: stop starting, let running work end, then reject with it.
      if (callbackError === undefined) callbackError = { error };
      stopCause ??= 'failure';
      stopper.abort(error);
    }
  };
  const failRun = (error: unknown): void => {
    if (options.stopOnFailure !== true || stopper.signal.aborted) return;
    stopCause ??= 'failure';
    stopper.abort(error);
  };

  const pending: Array<{ index: number; key: string }> = [];
  items.forEach((item, index) => {
    if (options.shouldRun !== undefined && !options.shouldRun(item, index)) {
      counts.skipped += 1;
      outcomes[index] = { status: 'skipped', item, index };
      emit({ type: 'item-skipped', item, index, counts: { ...counts } });
      return;
    }
    pending.push({ index, key: options.keyOf?.(item) ?? '' });
    counts.queued += 1;
    emit({ type: 'item-queued', item, index, counts: { ...counts } });
  });

  const running = new Set<Promise<void>>();
  const start = (index: number, key: string): void => {
    const item = items[index] as Item;
    counts.queued -= 1;
    counts.running += 1;
    const settled = (async () => {
      emit({ type: 'item-started', item, index, key, counts: { ...counts } });
      try {
        const value = await work(item, { signal, index });
        counts.running -= 1;
        counts.finished += 1;
        outcomes[index] = { status: 'fulfilled', item, index, value };
        emit({ type: 'item-finished', item, index, key, counts: { ...counts } });
      } catch (error) {
        counts.running -= 1;
        counts.failed += 1;
        outcomes[index] = { status: 'rejected', item, index, error };
        emit({ type: 'item-failed', item, index, key, error, counts: { ...counts } });
        failRun(error);
      } finally {
        slots.release(key);
      }
    })();
    running.add(settled);
    void settled.finally(() => running.delete(settled));
  };

  let onAbort = (): void => undefined;
  const stopped = new Promise<void>((resolve) => {
    onAbort = resolve;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', onAbort, { once: true });
  });

  let isStopping = false;
  while (pending.length > 0 || running.size > 0) {
    if (signal.aborted && !isStopping) {
      isStopping = true;
      stopCause ??= 'signal';
      emit({ type: 'scheduler-stopping', cause: stopCause, counts: { ...counts } });
      for (const { index } of pending.splice(0)) {
        counts.queued -= 1;
        counts.cancelled += 1;
        const item = items[index] as Item;
        outcomes[index] = { status: 'cancelled', item, index };
        emit({ type: 'item-cancelled', item, index, counts: { ...counts } });
      }
      continue;
    }
    const position = !isStopping && running.size < options.concurrency ? pending.findIndex(({ key }) => slots.hasRoom(key)) : -1;
    if (position === -1) {
      // Full (or stopping): wait for a slot to free up, or for the stop.
      await Promise.race(isStopping ? running : [...running, stopped]);
      continue;
    }
    const { index, key } = pending[position] as { index: number; key: string };
    slots.take(key);
    if (options.admit !== undefined) {
      const item = items[index] as Item;
      try {
        await options.admit(item, { key, running: running.size, signal });
      } catch (error) {
        slots.release(key);
        if (signal.aborted) continue; // Stopped while held: it stays queued and is cancelled above.
        pending.splice(position, 1);
        counts.queued -= 1;
        counts.failed += 1;
        outcomes[index] = { status: 'rejected', item, index, error };
        emit({ type: 'item-failed', item, index, key, error, counts: { ...counts } });
        failRun(error);
        continue;
      }
      if (signal.aborted) {
        slots.release(key);
        continue;
      }
    }
    pending.splice(position, 1);
    start(index, key);
  }
  signal.removeEventListener('abort', onAbort);

  if (callbackError !== undefined) throw callbackError.error;
  return { outcomes: outcomes as ScheduledOutcome<Item, Result>[], counts: { ...counts }, ...(stopCause === undefined ? {} : { stopCause }) };
}
