import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuWaitShare, hostCpuPressure, hostCpuTimes, hostRunQueue, idleCoresBetween } from './host-cpu.js';

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

  it('reads the kernel’s CPU pressure where it has one', () => {
    const pressure = hostCpuPressure();
    expect(pressure !== undefined).toBe(existsSync('/proc/pressure/cpu'));
    if (pressure !== undefined) {
      expect(pressure.waitedMicros).toBeGreaterThan(0);
      expect(pressure.avg10Percent).toBeGreaterThanOrEqual(0);
    }
  });

  it('gives the share of a window some task waited for a CPU, else the 10-second average', () => {
    expect(cpuWaitShare({ waitedMicros: 1_000_000, avg10Percent: 0 }, { waitedMicros: 1_250_000, avg10Percent: 90 }, 1000)).toBe(0.25);
    expect(cpuWaitShare(undefined, { waitedMicros: 5, avg10Percent: 40 }, 1000)).toBe(0.4);
    expect(cpuWaitShare({ waitedMicros: 0, avg10Percent: 0 }, { waitedMicros: 5, avg10Percent: 40 }, 0)).toBe(0.4);
  });
});
