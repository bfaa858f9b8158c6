import { describe, expect, it } from 'vitest';
import { ScoringError } from '../errors/scoring-error.js';
import { mcnemarExact } from './mcnemar-exact.js';

describe('mcnemarExact', () => {
  it('gives 0.0215 for b = 1, c = 9', () => {
    // n = 10; P(X <= 1) = (C(10,0) + C(10,1)) / 2^10 = (1 + 10) / 1024 = 0.0107421875
    // two-sided: 2 · 0.0107421875 = 0.021484375
    expect(mcnemarExact(1, 9).pValue).toBeCloseTo(0.021484375, 12);
  });

  it('is symmetric in b and c', () => {
    expect(mcnemarExact(9, 1).pValue).toBeCloseTo(mcnemarExact(1, 9).pValue, 15);
  });

  it('gives 0.125 for b = 0, c = 4', () => {
    // n = 4; P(X <= 0) = 1/16; two-sided 2/16 = 0.125
    expect(mcnemarExact(0, 4).pValue).toBeCloseTo(0.125, 12);
  });

  it('gives 0.34375 for b = 2, c = 6', () => {
    // n = 8; (C(8,0) + C(8,1) + C(8,2)) / 256 = (1 + 8 + 28) / 256 = 37/256; doubled: 74/256 = 0.2890625
    expect(mcnemarExact(2, 6).pValue).toBeCloseTo(0.2890625, 12);
  });

  it('caps at 1 when b equals c', () => {
    // n = 6, b = c = 3: 2 · (1 + 6 + 15 + 20)/64 = 84/64 > 1
    expect(mcnemarExact(3, 3).pValue).toBe(1);
  });

  it('is 1 with no discordant pairs', () => {
    expect(mcnemarExact(0, 0).pValue).toBe(1);
  });

  it('does not underflow for thousands of pairs', () => {
    // 2^-3000 underflows a double; the log-space sum must not return 0 or NaN for a balanced split.
    const balanced = mcnemarExact(1500, 1500).pValue;
    expect(balanced).toBe(1);
    const lopsided = mcnemarExact(1400, 1600).pValue;
    expect(lopsided).toBeGreaterThan(0);
    expect(lopsided).toBeLessThan(0.001);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(ScoringError);
    expect(() => mcnemarExact(1.5, 2)).toThrow('b (A passed, B failed): expected an integer >= 0, found 1.5');
  });
});
