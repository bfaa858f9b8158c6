import { describe, expect, it } from 'vitest';
import { ScoringError } from '../errors/scoring-error.js';
import { pairedBootstrapInterval } from './paired-bootstrap-interval.js';
import { seededRandom } from './seeded-random.js';

const pairsOf = (list: Array<[number, number]>) => list.map(([a, b]) => ({ a, b }));

describe('pairedBootstrapInterval', () => {
  it('collapses to the difference when every pair differs alike', () => {
    const interval = pairedBootstrapInterval(pairsOf([[0, 1], [0, 1], [0, 1]]), { resamples: 200 });
    expect(interval).toMatchObject({ estimate: 1, lower: 1, upper: 1, resamples: 200 });
  });

  it('is reproducible: the same seed gives the same interval', () => {
    const pairs = pairsOf([[1, 0], [0, 1], [0, 1], [1, 1], [0, 0], [0, 1]]);
    expect(pairedBootstrapInterval(pairs, { seed: 7 })).toEqual(pairedBootstrapInterval(pairs, { seed: 7 }));
  });

  it('is close to the normal interval for 20 pairs, 10 fixed and 10 unchanged', () => {
    // d = 1 for 10 pairs, 0 for 10: mean 0.5, sd of the mean sqrt(0.25/20) = 0.1118;
    // normal 95%: 0.5 ± 1.96 · 0.1118 = [0.281, 0.719]. The percentile bootstrap lands within a step (1/20) of it.
    const pairs = pairsOf([...Array.from({ length: 10 }, (): [number, number] => [0, 1]), ...Array.from({ length: 10 }, (): [number, number] => [1, 1])]);
    const interval = pairedBootstrapInterval(pairs);
    expect(interval.estimate).toBe(0.5);
    expect(interval.lower).toBeGreaterThan(0.2);
    expect(interval.lower).toBeLessThan(0.35);
    expect(interval.upper).toBeGreaterThan(0.65);
    expect(interval.upper).toBeLessThan(0.8);
  });

  it('is negative when B lost most pairs', () => {
    const pairs = pairsOf([[1, 0], [1, 0], [1, 0], [1, 0], [1, 0], [1, 0], [1, 1], [0, 0]]);
    const interval = pairedBootstrapInterval(pairs);
    expect(interval.estimate).toBe(-0.75);
    expect(interval.upper).toBeLessThan(0);
  });

  it('rejects no pairs, a bad level and a bad resample count', () => {
    expect(() => pairedBootstrapInterval([])).toThrow('pairs: expected at least one pair, found none');
    expect(() => pairedBootstrapInterval(pairsOf([[0, 1]]), { level: 95 })).toThrow(ScoringError);
    expect(() => pairedBootstrapInterval(pairsOf([[0, 1]]), { resamples: 0 })).toThrow('resamples: expected an integer >= 1, found 0');
  });
});

describe('seededRandom', () => {
  it('repeats its sequence for a seed and stays in [0, 1)', () => {
    const first = seededRandom(42);
    const second = seededRandom(42);
    const values = Array.from({ length: 1000 }, () => first());
    expect(values).toEqual(Array.from({ length: 1000 }, () => second()));
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    // Roughly uniform: the mean of 1000 draws is within 0.05 of 0.5.
    expect(Math.abs(values.reduce((sum, value) => sum + value, 0) / 1000 - 0.5)).toBeLessThan(0.05);
  });
});
