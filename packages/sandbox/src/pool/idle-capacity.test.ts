import { describe, expect, it } from 'vitest';
import type { CpuTimes } from '@agentbench/helpers';
import { PressuredHost } from '../../../helpers/test/helpers/pressured-host.js';
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
  it('is busy while tasks waited for a CPU more than half the window since the previous look, whatever the cores in use', () => {
    const host = new PressuredHost();
    // The cores are all in use (no idle CPU, a long run queue): only the waiting counts.
    const idle = new HostIdleCapacity({ readCpuPressure: host.read, now: host.clock, readRunQueue: () => 9, readCpuTimes: counters([{ idle: 0, total: 200 }]) });
    host.avg10Percent = 20;
    expect(idle.whyBusy()).toBeUndefined();
    host.pass(250, 200);
    expect(idle.whyBusy()).toBe('tasks waited for a CPU 80 % of the last 0.25 s');
    host.pass(250, 100);
    expect(idle.whyBusy()).toBeUndefined();
    host.pass(500, 251);
    expect(idle.whyBusy()).toBe('tasks waited for a CPU 50 % of the last 0.50 s');
  });

  it('judges its first look by the kernel’s 10-second average, and takes its threshold as an option', () => {
    const host = new PressuredHost();
    host.avg10Percent = 70;
    expect(new HostIdleCapacity({ readCpuPressure: host.read, now: host.clock }).whyBusy()).toBe('tasks waited for a CPU 70 % of the last 10 s');
    expect(new HostIdleCapacity({ readCpuPressure: host.read, now: host.clock, maxWaitShare: 0.8 }).whyBusy()).toBeUndefined();
  });

  describe('without CPU pressure', () => {
    it('is busy while more tasks are runnable than cores, the reader aside', () => {
      let runQueue = 3;
      const host = new HostIdleCapacity({ readCpuPressure: () => undefined, cores: 2, readRunQueue: () => runQueue, readCpuTimes: counters([{ idle: 100, total: 200 }]) });
      expect(host.whyBusy()).toBe('run queue 2 on 2 cores');
      runQueue = 2;
      expect(host.whyBusy()).toBeUndefined();
    });

    it('is busy while less than half a core was idle since the previous look', () => {
      const host = new HostIdleCapacity({ readCpuPressure: () => undefined, cores: 2, readRunQueue: () => undefined, readCpuTimes: counters([{ idle: 0, total: 0 }, { idle: 10, total: 200 }, { idle: 100, total: 200 }]) });
      expect(host.whyBusy()).toBeUndefined();
      expect(host.whyBusy()).toBe('0.10 of 2 cores idle');
      expect(host.whyBusy()).toBeUndefined();
    });
  });
});
