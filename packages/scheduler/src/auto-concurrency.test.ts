import { describe, expect, it } from 'vitest';
import { PressuredHost } from '../../helpers/test/helpers/pressured-host.js';
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

  it('without PSI, holds starts while tasks wait for a CPU or too little was idle since the previous look', async () => {
    let runQueue = 4;
    let cpu = { idle: 0, total: 0 };
    const auto = new AutoConcurrency({ maxJobs: 8, initialJobs: 4, cores: 2, readFreeMemory: plenty, readCpuPressure: () => undefined, readRunQueue: () => runQueue, readCpuTimes: () => cpu });
    await auto.admit(null, context);
    expect(auto.holdReason()).toBe('cpu');
    runQueue = 3; // the reader and two others: two cores busy, nobody waits
    expect(auto.holdReason()).toBeUndefined();
    cpu = { idle: 10, total: 200 }; // 0.1 of 2 cores idle since the previous look
    expect(auto.holdReason()).toBe('cpu');
    cpu = { idle: 110, total: 400 }; // a whole core idle
    expect(auto.holdReason()).toBeUndefined();
  });

  it('brakes on CPU pressure: holds starts while tasks waited for a CPU more than half of its own 1–10 s window', async () => {
    const host = new PressuredHost();
    // The run queue says every core is wanted; with PSI, the pressure decides.
    const auto = new AutoConcurrency({ maxJobs: 8, initialJobs: 4, readFreeMemory: plenty, readCpuPressure: host.read, now: host.clock, readRunQueue: () => 99 });
    await auto.admit(null, context);
    host.avg10Percent = 70;
    expect(auto.holdReason()).toBe('cpu'); // the first look: the kernel's 10-second average
    host.pass(500, 0);
    expect(auto.holdReason()).toBe('cpu'); // under 1 s since: the last window's share stands
    host.pass(1000, 200); // 200 ms of waiting in the 1.5 s since the first look
    expect(auto.holdReason()).toBeUndefined();
    host.pass(2000, 1600);
    expect(auto.holdReason()).toBe('cpu');
    host.pass(30_000, 30_000); // a window older than 10 s is stale: the 10-second average again
    host.avg10Percent = 10;
    expect(auto.holdReason()).toBeUndefined();
  });

  it('brakes and slows its growth only on waiting the run adds: on a machine others kept at 95 %, 97 % holds nothing', async () => {
    const host = new PressuredHost();
    host.avg10Percent = 95;
    const auto = new AutoConcurrency({ maxJobs: 8, initialJobs: 4, readFreeMemory: plenty, readCpuPressure: host.read, now: host.clock });
    await auto.admit(null, context);
    host.pass(2000, 1940);
    expect(auto.holdReason()).toBeUndefined();
    auto.createFinished(100, true);
    expect(auto.limit).toBe(5);
  });

  it('lets one more in per start while the CPU is free, and not while tasks wait for it', async () => {
    const host = new PressuredHost();
    const auto = new AutoConcurrency({ maxJobs: 8, initialJobs: 2, readFreeMemory: plenty, readCpuPressure: host.read, now: host.clock });
    auto.createFinished(100, true);
    expect(auto.limit).toBe(3);
    host.pass(2000, 1000);
    auto.createFinished(100, true);
    expect(auto.limit).toBe(3);
  });

  /** Runs one throughput window: `count` items admitted and started, `elapsedMs` pass with `waitedMs` of CPU waiting, then all finish. */
  async function runWindow(auto: AutoConcurrency, host: PressuredHost, count: number, elapsedMs: number, waitedMs: number): Promise<void> {
    for (let index = 0; index < count; index += 1) {
      await auto.admit(null, context);
      auto.createFinished(100, true);
    }
    host.pass(elapsedMs, waitedMs);
    for (let index = 0; index < count; index += 1) auto.itemFinished(false);
  }

  it('finds the knee: the concurrency beyond which throughput stops rising while CPU pressure rises', async () => {
    const host = new PressuredHost();
    const limits: number[] = [];
    const auto = new AutoConcurrency({ maxJobs: 8, cores: 2, throughputWindow: 2, maxWaitShare: 1, readFreeMemory: plenty, readCpuPressure: host.read, now: host.clock, onLimitChange: (limit) => limits.push(limit) });
    host.avg10Percent = 30; // idle before the run, contended once it runs: the limit grows by windows, not by starts
    await runWindow(auto, host, 2, 10_000, 3000); // two in flight: 0.2 per second, CPU waited 30 %
    expect(auto.limit).toBe(3);
    await runWindow(auto, host, 3, 10_000, 5000); // three: 0.3 per second, 50 %
    expect(auto.limit).toBe(4);
    expect(auto.knee).toBeUndefined();
    await runWindow(auto, host, 4, 13_000, 11_000); // four: 0.31 per second (3 % more), 85 %
    expect(auto.knee).toBe(3);
    expect(auto.limit).toBe(3);
    expect(limits).toEqual([3, 4, 3]);
    expect(auto.windows.map((window) => [window.meanRunning, Math.round(window.perSecond * 100) / 100, window.cpuWaitShare])).toEqual([
      [2, 0.2, 0.3],
      [3, 0.3, 0.5],
      [4, 0.31, 11 / 13],
    ]);
    // Past the knee nothing grows it again.
    await runWindow(auto, host, 3, 5000, 0);
    expect(auto.limit).toBe(3);
  });

  it('never puts the knee below the cores: running one at a time leaves a core idle, whatever one window said', async () => {
    const host = new PressuredHost();
    const auto = new AutoConcurrency({ maxJobs: 4, initialJobs: 1, cores: 2, throughputWindow: 1, maxWaitShare: 1, readFreeMemory: plenty, readCpuPressure: host.read, now: host.clock });
    host.avg10Percent = 30;
    // One in flight finishing fast (as attempts started before a window look when their finishes bunch), then two slower while tasks wait more.
    await runWindow(auto, host, 1, 5000, 1000);
    expect(auto.limit).toBe(2);
    await runWindow(auto, host, 2, 20_000, 16_000);
    expect(auto.windows.map((window) => window.meanRunning)).toEqual([1, 2]);
    expect(auto.knee).toBe(2);
    expect(auto.limit).toBe(2);
  });

  it('no faster without more CPU waiting is no knee: the limit holds for that window, then grows on', async () => {
    const host = new PressuredHost();
    const auto = new AutoConcurrency({ maxJobs: 8, throughputWindow: 2, maxWaitShare: 1, readFreeMemory: plenty, readCpuPressure: host.read, now: host.clock });
    host.avg10Percent = 30;
    await runWindow(auto, host, 2, 10_000, 4000); // 0.2 per second, 40 %
    await runWindow(auto, host, 3, 15_000, 3000); // 0.2 per second at three, 20 %: the CPU is not why
    expect(auto.knee).toBeUndefined();
    expect(auto.limit).toBe(3);
    await runWindow(auto, host, 3, 10_000, 3000); // 0.3 per second at three: it pays
    expect(auto.limit).toBe(4);
  });

  it('without PSI, grows by each start and finds the knee on throughput alone', async () => {
    let clock = 0;
    const auto = new AutoConcurrency({ ...quietHost, maxJobs: 5, initialJobs: 2, cores: 2, throughputWindow: 2, readFreeMemory: plenty, now: () => clock });
    // Two in flight (not yet started: no create reported), 0.2 per second; the window ran at its limit: three.
    await auto.admit(null, context);
    await auto.admit(null, context);
    clock += 10_000;
    auto.itemFinished(false);
    auto.itemFinished(false);
    expect(auto.limit).toBe(3);
    // Each start lets one more in (no CPU pressure known): five in flight, 0.2 per second.
    const host = { pass: (elapsedMs: number) => (clock += elapsedMs) } as unknown as PressuredHost;
    await runWindow(auto, host, 5, 25_000, 0);
    expect(auto.knee).toBe(2);
    expect(auto.limit).toBe(2);
    expect(auto.windows.map((window) => window.cpuWaitShare)).toEqual([null, null]);
  });
});
