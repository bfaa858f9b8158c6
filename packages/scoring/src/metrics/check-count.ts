import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';

/** Throws unless `value` is an integer >= `minimum`. */
export function checkCount(field: string, value: unknown, minimum = 0): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new ScoringError(field, `expected an integer >= ${minimum}, found ${describeValue(value)}`);
  }
}
