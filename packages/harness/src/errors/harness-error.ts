import { MarkedError } from '@agentbench/schemas';

/**
 * Base error of @agentbench/harness. `isInstance` checks a `Symbol.for` marker, so it works
 * across copies of the package. `failureReason`, when set, is how the attempt that hit the
 * error is recorded (`failureReason` of MarkedError).
 */
export class HarnessError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.harness-error');
  override readonly name: string = 'HarnessError';
}
