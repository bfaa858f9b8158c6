import { checkCount } from './check-count.js';

export interface McNemarResult {
  /** Discordant pairs where A passed and B failed (regressions when B is the new run). */
  b: number;
  /** Discordant pairs where A failed and B passed (fixes). */
  c: number;
  /** Two-sided exact p-value; 1 when there are no discordant pairs. */
  pValue: number;
}

/** log(exp(left) + exp(right)) without overflow or underflow. */
function logAdd(left: number, right: number): number {
  if (left === Number.NEGATIVE_INFINITY) return right;
  const high = Math.max(left, right);
  return high + Math.log(Math.exp(left - high) + Math.exp(right - high));
}

/**
 * McNemar's exact test on paired pass/fail outcomes (McNemar, Psychometrika 12(2), 1947; exact
 * form: the binomial test on the discordant pairs). Under "A and B are equally good" each of the
 * n = b + c discordant pairs is b-type or c-type with probability 1/2, so
 *
 *   p = min(1, 2 · Σ_{i=0}^{min(b,c)} C(n, i) / 2ⁿ)
 *
 * Concordant pairs (both pass, both fail) carry no information about the difference and are not
 * arguments. Terms are summed in log space so that thousands of pairs do not underflow 2⁻ⁿ.
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  checkCount('b (A passed, B failed)', b);
  checkCount('c (A failed, B passed)', c);
  const n = b + c;
  if (n === 0) return { b, c, pValue: 1 };
  const smaller = Math.min(b, c);
  const logHalfToTheN = n * Math.log(0.5);
  let logTerm = logHalfToTheN; // i = 0: C(n, 0) / 2ⁿ
  let logTail = logTerm;
  for (let i = 1; i <= smaller; i += 1) {
    logTerm += Math.log(n - i + 1) - Math.log(i); // C(n, i) = C(n, i-1) · (n-i+1) / i
    logTail = logAdd(logTail, logTerm);
  }
  return { b, c, pValue: Math.min(1, 2 * Math.exp(logTail)) };
}
