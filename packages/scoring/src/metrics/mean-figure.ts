import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';

/** A per-attempt figure (tokens, cost, steps, seconds) averaged over the attempts that report it. */
export interface MeanFigure {
  /** Mean over the attempts that have the figure; null when none has it. */
  mean: number | null;
  /** Sum over the attempts that have the figure. */
  sum: number;
  /** How many attempts had the figure. */
  count: number;
  /** How many attempts there were, with or without it. */
  attempts: number;
}

/**
 * Mean of a per-attempt figure, ignoring attempts without one (null or undefined) instead of
 * counting them as zero: a missing usage report is not a free call. `count` says how many had it.
 */
export function meanFigure(
  values: readonly (number | null | undefined)[],
  fieldAt: (index: number) => string = (index) => `values[${index}]`,
): MeanFigure {
  let sum = 0;
  let count = 0;
  values.forEach((value, index) => {
    if (value === null || value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ScoringError(fieldAt(index), `expected a finite number >= 0, null or nothing, found ${describeValue(value)}`);
    }
    sum += value;
    count += 1;
  });
  return { mean: count === 0 ? null : sum / count, sum, count, attempts: values.length };
}
