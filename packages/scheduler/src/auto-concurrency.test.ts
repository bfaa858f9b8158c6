import { describe, expect, it } from 'vitest';
import { quietHost } from '../test/helpers/quiet-host.js';
import { AutoConcurrency } from './auto-concurrency.js';
import { runScheduled } from './run-scheduled.js';

const GIB = 1024 ** 3;
const signal = new AbortController().signal;
const context = { key: '', running: 0, signal };

function plenty(): number {
  return 64 * GIB;
}

describe('AutoConcurrency', () => {
  it('starts at two and grows by one per successful create, never above maxJobs', async () => {
    const auto = new AutoConcurrency({ ...quietHost, maxJobs: 4, readFreeMemory: plenty });
    await auto.admit(null, context);
    await auto.admit(null, context);
    expect(auto.holdReason()).toBe('limit');
    auto.createFinished(100, true);
    expect(auto.holdReason()).toBeUndefined();
    auto.createFinished(100, false);
    expect(auto.limit).toBe(3);
    for (let index = 0; index < 5; index += 1) auto.createFinished(100, true);
    expect(auto.limit).toBe(4);
  });

  it('grows once per item: later creates of the same item are latency samples only', async () => {
    const auto = new AutoConcurrency({ ...quietHost, maxJobs: 8, initialJobs: 1, readFreeMemory: plenty, referenceCreates: 2, recentCreates: 2 });
    await auto.admit(null, context);
    auto.createFinished(100, true); // the item's own sandbox
    auto.createFinished(100, true, { isItemStart: false }); // its verdict sandbox
    expect(auto.limit).toBe(2);
    expect(auto.holdReason()).toBeUndefined();
    // Those creates still count for latency: two slow ones hold starts.
    auto.createFinished(400, true, { isItemStart: false });
    auto.createFinished(400, true, { isItemStart: false });
    expect(auto.limit).toBe(2);
    expect(auto.holdReason()).toBe('create-latency');
  });

  it('holds while free memory is under 1 GiB plus 512 MiB per running item', async () => {
    let free = 1.4 * GIB;
    const auto = new AutoConcurrency({ ...quietHost, maxJobs: 8, initialJobs: 8, readFreeMemory: () => free });
    await auto.admit(null, context); // nothing runs: never held
    expect(auto.holdReason()).toBe('memory');
    free = 1.6 * GIB;
    expect(auto.holdReason()).toBeUndefined();
  });

  it('holds while the latest creates take more than twice the first ones', async () => {
    const auto = new AutoConcurrency({ ...quietHost, maxJobs: 8, initialJobs: 8, readFreeMemory: plenty, referenceCreates: 2, recentCreates: 2 });
    await auto.admit(null, context);
    auto.createFinished(100, true);
    auto.createFinished(120, true);
    expect(auto.holdReason()).toBeUndefined();
    auto.createFinished(300, true);
    auto.createFinished(260, true);
    expect(auto.holdReason()).toBe('create-latency');
    auto.createFinished(150, true);
    auto.createFinished(150, true);
    expect(auto.holdReason()).toBeUndefined();
  });

  it('holds while infrastructure failures rise, and lets starts go once they stop rising', async () => {
    const auto = new AutoConcurrency({ ...quietHost, maxJobs: 8, initialJobs: 8, readFreeMemory: plenty, failureWindow: 2 });
    for (let index = 0; index < 4; index += 1) await auto.admit(null, context);
    auto.itemFinished(false);
    auto.itemFinished(false);
    auto.itemFinished(true);
    expect(auto.holdReason()).toBe('infra-failures');
    auto.itemFinished(false);
    await auto.admit(null, context);
    // Latest window [true, false] against [false, false] before it: still rising.
    expect(auto.holdReason()).toBe('infra-failures');
    auto.itemFinished(false);
    auto.itemFinished(false);
    await auto.admit(null, context);
    expect(auto.holdReason()).toBeUndefined();
  });

  it('waits inside admit until the hold lifts, looking again after each sleep', async () => {
    let free = 0;
    let sleeps = 0;
    const auto = new AutoConcurrency({
      ...quietHost,
      maxJobs: 4,
      readFreeMemory: () => free,
      sleep: async () => {
        sleeps += 1;
        if (sleeps === 3) free = 64 * GIB;
      },
    });
    await auto.admit(null, context);
    await auto.admit(null, context);
    expect(sleeps).toBe(3);
    expect(auto.running).toBe(2);
  });

  it('is the admit hook of runScheduled: never more in flight than its limit', async () => {
    const auto = new AutoConcurrency({ ...quietHost, maxJobs: 3, initialJobs: 1, readFreeMemory: plenty, sleep: () => new Promise((resolve) => setImmediate(resolve)) });
    let inFlight = 0;
    let peak = 0;
    await runScheduled(Array.from({ length: 12 }, (_, index) => index), { concurrency: 10, admit: auto.admit }, async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      auto.createFinished(10, true);
      for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      auto.itemFinished(false);
    });
    expect(peak).toBe(3);
  });

  it('rejects a maxJobs of 0 by its name', () => {
    expect(() => new AutoConcurrency({ ...quietHost, maxJobs: 0 })).toThrow('maxJobs: expected a whole number ≥ 1, found 0');
  });

  it('holds starts while tasks wait for a CPU or too little was idle since the previous look', async () => {
    let runQueue = 4;
    let cpu = { idle: 0, total: 0 };
    const auto = new AutoConcurrency({ maxJobs: 8, initialJobs: 4, cores: 2, readFreeMemory: plenty, readRunQueue: () => runQueue, readCpuTimes: () => cpu });
    await auto.admit(null, context);
    expect(auto.holdReason()).toBe('cpu');
    runQueue = 3; // the reader and two others: two cores busy, nobody waits
    expect(auto.holdReason()).toBeUndefined();
    cpu = { idle: 10, total: 200 }; // 0.1 of 2 cores idle since the previous look
    expect(auto.holdReason()).toBe('cpu');
    cpu = { idle: 110, total: 400 }; // a whole core idle
    expect(auto.holdReason()).toBeUndefined();
  });

  it('stops growing at the knee: a window at higher concurrency that finishes no faster sets the limit back', async () => {
    let clock = 0;
    const limits: number[] = [];
    const auto = new AutoConcurrency({ ...quietHost, maxJobs: 16, initialJobs: 2, throughputWindow: 2, readFreeMemory: plenty, now: () => clock, onLimitChange: (limit) => limits.push(limit) });
    const admit = async (count: number): Promise<void> => {
      for (let index = 0; index < count; index += 1) {
        await auto.admit(null, context);
        auto.createFinished(100, true);
      }
    };
    // Window 1: two in flight, two finish in 10 s (0.2 per second).
    await admit(2);
    clock += 10_000;
    auto.itemFinished(false);
    auto.itemFinished(false);
    expect(auto.knee).toBeUndefined();
    // Window 2: four in flight, two finish in 5 s (0.4 per second): the higher concurrency paid.
    await admit(4);
    clock += 5_000;
    auto.itemFinished(false);
    auto.itemFinished(false);
    expect(auto.knee).toBeUndefined();
    expect(auto.limit).toBeGreaterThanOrEqual(6);
    // Window 3: six in flight, two finish in 5 s (no faster): the knee is four.
    await admit(4);
    clock += 5_000;
    auto.itemFinished(false);
    auto.itemFinished(false);
    expect(auto.knee).toBe(4);
    expect(auto.limit).toBe(4);
    // Each change told once, the knee last: what a warm pool's size follows.
    expect(limits).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 4]);
    auto.createFinished(100, true);
    expect(auto.limit).toBe(4);
  });
});
