import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';
import { checkCount } from './check-count.js';

/** The standard normal quantile for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

export interface ProportionInterval {
  lower: number;
  upper: number;
}

export interface IntervalOptions {
  /** Standard normal quantile: 1.959963984540054 (95%, the default), 2.5758293035489 (99%), 1.6448536269514722 (90%). */
  z?: number;
}

/**
 * Wilson score interval for a binomial proportion (E. B. Wilson, "Probable inference, the
 * law of succession, and statistical inference", JASA 22(158), 1927; see also Brown, Cai and
 * DasGupta, "Interval Estimation for a Binomial Proportion", Statistical Science 16(2), 2001).
 * With p = successes / trials, n = trials:
 *
 *   center = (p + z²/(2n)) / (1 + z²/n)
 *   half   = z / (1 + z²/n) * sqrt(p(1 - p)/n + z²/(4n²))
 *   [center - half, center + half]
 *
 * Unlike the normal approximation it stays inside [0, 1] and is not empty at p = 0 or 1,
 * which matters for the small n of agent benchmarks. With no trials it is [0, 1].
 */
export function wilsonInterval(successes: number, trials: number, options: IntervalOptions = {}): ProportionInterval {
  checkCount('trials', trials);
  checkCount('successes', successes);
  if (successes > trials) {
    throw new ScoringError('successes', `cannot exceed trials (${trials}), found ${successes}`);
  }
  const z = options.z ?? Z_95;
  if (typeof z !== 'number' || !Number.isFinite(z) || z <= 0) {
    throw new ScoringError('z', `expected a positive finite number such as 1.96, found ${describeValue(z)}`);
  }
  if (trials === 0) return { lower: 0, upper: 1 };
  const proportion = successes / trials;
  const zSquared = z * z;
  const denominator = 1 + zSquared / trials;
  const center = (proportion + zSquared / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((proportion * (1 - proportion)) / trials + zSquared / (4 * trials * trials));
  // At p = 0 and p = 1 the bound is exactly 0 or 1; rounding would give -1e-17 or 0.9999999999999999.
  return {
    lower: successes === 0 ? 0 : Math.max(0, center - half),
    upper: successes === trials ? 1 : Math.min(1, center + half),
  };
}

export interface PassRate {
  passed: number;
  total: number;
  /** passed / total; null when there were no attempts. */
  rate: number | null;
  interval: ProportionInterval;
  z: number;
}

/** Pass rate with its Wilson score interval (95% unless `z` says otherwise). */
export function passRate(passed: number, total: number, options: IntervalOptions = {}): PassRate {
  const interval = wilsonInterval(passed, total, options);
  return { passed, total, rate: total === 0 ? null : passed / total, interval, z: options.z ?? Z_95 };
}
