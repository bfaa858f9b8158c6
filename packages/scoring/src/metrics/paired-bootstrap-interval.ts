import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';
import { checkCount } from './check-count.js';
import { seededRandom } from './seeded-random.js';

/** One pair: the same task (and repeat) measured in run A and in run B; 1/0 for pass/fail. */
export interface PairedValues {
  a: number;
  b: number;
}

export interface BootstrapOptions {
  /** Resamples drawn. Default 10,000. */
  resamples?: number;
  /** PRNG seed (mulberry32), so a report is reproducible. Default 20240101. */
  seed?: number;
  /** Coverage of the interval. Default 0.95. */
  level?: number;
}

export interface BootstrapInterval {
  /** Mean of b − a over the pairs as observed. */
  estimate: number;
  lower: number;
  upper: number;
  resamples: number;
  seed: number;
  level: number;
}

export const DEFAULT_BOOTSTRAP_RESAMPLES = 10_000;
export const DEFAULT_BOOTSTRAP_SEED = 20240101;

/** The q-quantile of sorted values, linear between neighbours (type 7, R's default). */
function quantile(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  const low = sorted[below] as number;
  const high = sorted[above] as number;
  return low + (high - low) * (position - below);
}

/**
 * Paired percentile bootstrap interval of mean(b − a) (Efron and Tibshirani, "An Introduction to
 * the Bootstrap", 1993, ch. 13): resample whole pairs with replacement, take the mean difference
 * of each resample, report the (1−level)/2 and (1+level)/2 quantiles. Resampling pairs, not the
 * two runs apart, keeps the per-task correlation that makes a paired comparison sharper. With
 * pass = 1, fail = 0 the estimate is the pass-rate difference B − A.
 */
export function pairedBootstrapInterval(pairs: readonly PairedValues[], options: BootstrapOptions = {}): BootstrapInterval {
  const resamples = options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES;
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const level = options.level ?? 0.95;
  checkCount('resamples', resamples, 1);
  if (typeof level !== 'number' || !(level > 0 && level < 1)) {
    throw new ScoringError('level', `expected a number between 0 and 1 such as 0.95, found ${describeValue(level)}`);
  }
  if (pairs.length === 0) throw new ScoringError('pairs', 'expected at least one pair, found none');
  const differences = pairs.map((pair, index) => {
    const difference = pair.b - pair.a;
    if (!Number.isFinite(difference)) throw new ScoringError(`pairs[${index}]`, `expected finite numbers a and b, found ${describeValue(pair)}`);
    return difference;
  });
  const random = seededRandom(seed);
  const count = differences.length;
  const means = new Float64Array(resamples);
  for (let draw = 0; draw < resamples; draw += 1) {
    let sum = 0;
    for (let pick = 0; pick < count; pick += 1) sum += differences[Math.floor(random() * count)] as number;
    means[draw] = sum / count;
  }
  means.sort();
  const estimate = differences.reduce((sum, value) => sum + value, 0) / count;
  return { estimate, lower: quantile(means, (1 - level) / 2), upper: quantile(means, (1 + level) / 2), resamples, seed, level };
}
