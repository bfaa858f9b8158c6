import { describe, expect, it } from 'vitest';
import type { CpuTimes } from '@agentbench/helpers';
import { HostIdleCapacity } from './idle-capacity.js';

/** CPU counters the test advances: `idle` of `total` ms pass per look. */
function counters(steps: Array<{ idle: number; total: number }>): () => CpuTimes {
  let now: CpuTimes = { idle: 0, total: 0 };
  let index = 0;
  return () => {
    const step = steps[Math.min(index, steps.length - 1)] as { idle: number; total: number };
    index += 1;
    now = { idle: now.idle + step.idle, total: now.total + step.total };
    return now;
  };
}

describe('HostIdleCapacity', () => {
  it('is busy while more tasks are runnable than cores, the reader aside', () => {
    let runQueue = 3;
    const host = new HostIdleCapacity({ cores: 2, readRunQueue: () => runQueue, readCpuTimes: counters([{ idle: 100, total: 200 }]) });
    expect(host.whyBusy()).toBe('run queue 2 on 2 cores');
    runQueue = 2;
    expect(host.whyBusy()).toBeUndefined();
  });

  it('is busy while less than half a core was idle since the previous look', () => {
    const host = new HostIdleCapacity({ cores: 2, readRunQueue: () => undefined, readCpuTimes: counters([{ idle: 0, total: 0 }, { idle: 10, total: 200 }, { idle: 100, total: 200 }]) });
    expect(host.whyBusy()).toBeUndefined();
    expect(host.whyBusy()).toBe('0.10 of 2 cores idle');
    expect(host.whyBusy()).toBeUndefined();
  });
});
