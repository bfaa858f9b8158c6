import { describe, expect, it } from 'vitest';
import { SchedulerError } from './errors/scheduler-error.js';
import { runScheduled } from './run-scheduled.js';
import type { SchedulerEvent } from './scheduler-event.js';

/** A few turns of the event loop, so other items could start if the limits allowed it. */
async function yieldTurns(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Resolves once `signal` is aborted. */
function abortedOf(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function describeEvent(event: SchedulerEvent<string>): string {
  return event.type === 'scheduler-stopping' ? `${event.type} ${event.cause}` : `${event.type} ${event.item}`;
}

describe('runScheduled', () => {
  it('never has more than `concurrency` items in flight, and uses all of them', async () => {
    let inFlight = 0;
    let peak = 0;
    const items = Array.from({ length: 12 }, (_, index) => index);
    const { outcomes, counts } = await runScheduled(items, { concurrency: 3 }, async (item) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await yieldTurns();
      inFlight -= 1;
      return item * 2;
    });
    expect(peak).toBe(3);
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : outcome.status))).toEqual(items.map((item) => item * 2));
    expect(counts).toEqual({ total: 12, queued: 0, running: 0, finished: 12, failed: 0, skipped: 0, cancelled: 0 });
  });

  it('keeps each key within its limit: limitPerKey for every key, limitsByKey for the keys it names', async () => {
    const inFlight = new Map<string, number>();
    const peak = new Map<string, number>();
    const items = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'b4', 'c1', 'c2'];
    await runScheduled(items, { concurrency: 10, keyOf: (item) => item.slice(0, 1), limitPerKey: 1, limitsByKey: new Map([['b', 2]]) }, async (item) => {
      const key = item.slice(0, 1);
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      peak.set(key, Math.max(peak.get(key) ?? 0, inFlight.get(key) ?? 0));
      await yieldTurns();
      inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
    });
    expect(Object.fromEntries(peak)).toEqual({ a: 1, b: 2, c: 1 });
  });

  it('lets a later item go ahead while the first waiting item’s key is full', async () => {
    const started: string[] = [];
    await runScheduled(['a1', 'a2', 'b1'], { concurrency: 2, keyOf: (item) => item.slice(0, 1), limitPerKey: 1 }, async (item) => {
      started.push(item);
      await yieldTurns();
    });
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });

  it('skips the items the resume filter rejects, without running them', async () => {
    const ran: string[] = [];
    const events: string[] = [];
    const { outcomes, counts } = await runScheduled(
      ['done-1', 'todo-1', 'done-2', 'todo-2'],
      { concurrency: 2, shouldRun: (item) => !item.startsWith('done'), onEvent: (event) => events.push(describeEvent(event)) },
      async (item) => {
        ran.push(item);
      },
    );
    expect(ran.sort()).toEqual(['todo-1', 'todo-2']);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['skipped', 'fulfilled', 'skipped', 'fulfilled']);
    expect(counts).toMatchObject({ skipped: 2, finished: 2 });
    expect(events.filter((event) => event.startsWith('item-skipped'))).toEqual(['item-skipped done-1', 'item-skipped done-2']);
  });

  it('stops new starts when the signal is aborted, and the running items see it on their own signal', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const sawAbort: string[] = [];
    const events: string[] = [];
    const result = await runScheduled(
      ['a', 'b', 'c', 'd', 'e'],
      {
        concurrency: 2,
        signal: controller.signal,
        onEvent: (event) => {
          events.push(describeEvent(event));
          // Abort once two items are running: nothing else may start.
          if (event.type === 'item-started' && event.counts.running === 2) controller.abort();
        },
      },
      async (item, { signal }) => {
        started.push(item);
        await abortedOf(signal);
        sawAbort.push(item);
        return item;
      },
    );
    expect(started).toEqual(['a', 'b']);
    expect(sawAbort.sort()).toEqual(['a', 'b']);
    expect(result.outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'cancelled', 'cancelled', 'cancelled']);
    expect(result.stopCause).toBe('signal');
    expect(result.counts).toMatchObject({ finished: 2, cancelled: 3, queued: 0, running: 0 });
    expect(events.filter((event) => event.startsWith('scheduler-stopping'))).toEqual(['scheduler-stopping signal']);
  });

  it('runs nothing when the signal is already aborted', async () => {
    let calls = 0;
    const result = await runScheduled(['a', 'b'], { concurrency: 2, signal: AbortSignal.abort() }, async () => {
      calls += 1;
    });
    expect(calls).toBe(0);
    expect(result.outcomes.map((outcome) => outcome.status)).toEqual(['cancelled', 'cancelled']);
  });

  it('reports events in order, each with the counts of that moment', async () => {
    const events: string[] = [];
    await runScheduled(['x', 'y'], { concurrency: 1, onEvent: (event) => events.push(`${describeEvent(event)} q${event.counts.queued} r${event.counts.running} f${event.counts.finished}`) }, async () => {
      await yieldTurns(1);
    });
    expect(events).toEqual([
      'item-queued x q1 r0 f0',
      'item-queued y q2 r0 f0',
      'item-started x q1 r1 f0',
      'item-finished x q1 r0 f1',
      'item-started y q0 r1 f1',
      'item-finished y q0 r0 f2',
    ]);
  });

  it('settles a failing item as rejected and goes on with the others', async () => {
    const events: string[] = [];
    const { outcomes, counts, stopCause } = await runScheduled(['ok-1', 'bad', 'ok-2'], { concurrency: 1, onEvent: (event) => events.push(describeEvent(event)) }, async (item) => {
      if (item === 'bad') throw new Error('the disk is full');
      return item;
    });
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const rejected = outcomes[1];
    expect(rejected?.status === 'rejected' ? (rejected.error as Error).message : undefined).toBe('the disk is full');
    expect(counts).toMatchObject({ finished: 2, failed: 1 });
    expect(stopCause).toBeUndefined();
    expect(events).toContain('item-failed bad');
  });

  it('with stopOnFailure, a failure stops new starts and aborts the running items', async () => {
    const started: string[] = [];
    let markSlowRunning: () => void = () => undefined;
    const slowRunning = new Promise<void>((resolve) => (markSlowRunning = resolve));
    const result = await runScheduled(['slow', 'bad', 'never'], { concurrency: 2, stopOnFailure: true }, async (item, { signal }) => {
      started.push(item);
      if (item === 'bad') {
        // Fail only once `slow` is running, so the failure has something to abort.
        await slowRunning;
        throw new Error('our bug');
      }
      markSlowRunning();
      await abortedOf(signal);
      return (signal.reason as Error).message;
    });
    expect(started).toEqual(['slow', 'bad']);
    expect(result.outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'cancelled']);
    expect(result.outcomes[0]).toMatchObject({ status: 'fulfilled', value: 'our bug' });
    expect(result.stopCause).toBe('failure');
  });

  it('holds each start until admit lets it go, with its slot reserved', async () => {
    const started: string[] = [];
    const admitted: string[] = [];
    const releases: Array<() => void> = [];
    const run = runScheduled(['a', 'b'], { concurrency: 2, admit: (item) => new Promise<void>((resolve) => releases.push(() => (admitted.push(item), resolve()))) }, async (item) => {
      started.push(item);
    });
    await yieldTurns();
    // One admission at a time, and nothing starts before it is admitted.
    expect(releases).toHaveLength(1);
    expect(started).toEqual([]);
    releases[0]?.();
    await yieldTurns();
    expect(started).toEqual(['a']);
    expect(releases).toHaveLength(2);
    releases[1]?.();
    await run;
    expect(started).toEqual(['a', 'b']);
    expect(admitted).toEqual(['a', 'b']);
  });

  it('fails the item whose admission throws', async () => {
    const { outcomes } = await runScheduled(['a', 'b'], { concurrency: 1, admit: (item) => {
      if (item === 'a') throw new Error('no memory');
    } }, async (item) => item);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled']);
  });

  it('rejects with the error of an onEvent that throws, after the running work settled', async () => {
    let isSettled = false;
    const run = runScheduled(['a', 'b', 'c'], {
      concurrency: 1,
      onEvent: (event) => {
        if (event.type === 'item-started' && event.item === 'a') throw new Error('printer broke');
      },
    }, async (_item, { signal }) => {
      await abortedOf(signal);
      isSettled = true;
    });
    await expect(run).rejects.toThrow('printer broke');
    expect(isSettled).toBe(true);
  });

  it('names a bad limit', async () => {
    const work = async (): Promise<void> => undefined;
    await expect(runScheduled([1], { concurrency: 0 }, work)).rejects.toThrow('concurrency: expected a whole number ≥ 1, found 0');
    await expect(runScheduled([1], { concurrency: 1, limitPerKey: 1.5 }, work)).rejects.toThrow(SchedulerError);
    await expect(runScheduled([1], { concurrency: 1, limitsByKey: new Map([['openai', 0]]) }, work)).rejects.toThrow('limitsByKey.openai: expected a whole number ≥ 1, found 0');
  });
});
