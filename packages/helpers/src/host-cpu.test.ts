import { describe, expect, it } from 'vitest';
import { hostCpuTimes, hostRunQueue, idleCoresBetween } from './host-cpu.js';

describe('host CPU readings', () => {
  it('reads counters that only grow, and a run queue that counts the reader on Linux', () => {
    const first = hostCpuTimes();
    expect(first.total).toBeGreaterThan(0);
    expect(first.idle).toBeLessThanOrEqual(first.total);
    const runQueue = hostRunQueue();
    if (process.platform === 'linux') expect(runQueue).toBeGreaterThanOrEqual(1);
  });

  it('gives the idle cores between two readings', () => {
    expect(idleCoresBetween({ idle: 0, total: 0 }, { idle: 50, total: 200 }, 2)).toBe(0.5);
    expect(idleCoresBetween({ idle: 5, total: 10 }, { idle: 5, total: 10 }, 2)).toBeUndefined();
  });
});
