import { EvaluatorsError } from './evaluators-error.js';

/** An evaluator that cannot be registered: not a valid evaluator, or its type is taken. */
export class EvaluatorRegistrationError extends EvaluatorsError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.evaluator-registration-error');
  override readonly name = 'EvaluatorRegistrationError';
}
