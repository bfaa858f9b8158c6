import { describe, expect, it } from 'vitest';
import { runEfficiency } from './run-efficiency.js';

describe('runEfficiency', () => {
  it('is CPU seconds over cores over wall time', () => {
    expect(runEfficiency(120, 2, 100)).toEqual({ cpu_seconds: 120, cores: 2, wall_seconds: 100, value: 0.6 });
    expect(runEfficiency(0, 4, 10)?.value).toBe(0);
  });

  it('has no figure for a run of no time or no cores', () => {
    expect(runEfficiency(1, 2, 0)).toBeUndefined();
    expect(runEfficiency(1, 0, 5)).toBeUndefined();
    expect(runEfficiency(Number.NaN, 2, 5)).toBeUndefined();
  });
});
