import { MarkedError } from '@agentbench/schemas';

/**
 * Base error of @agentbench/scoring: always a mistake in the input (an unknown strategy,
 * a threshold out of range, k larger than the number of attempts), never a bug of ours.
 * `isInstance` works across copies of the package.
 */
export class ScoringError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.scoring-error');
  override readonly name: string = 'ScoringError';
  /** Path of the offending field, such as `judgment.threshold` or `records[3].result.failure_reason`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.field = field;
  }
}
