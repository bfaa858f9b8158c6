import { MarkedError } from '@agentbench/schemas';

/** Base error of @agentbench/evaluators. `isInstance` checks a `Symbol.for` marker, so it works across copies of the package. */
export class EvaluatorsError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators-error');
  override readonly name: string = 'EvaluatorsError';
}
