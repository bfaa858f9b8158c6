import { EvaluatorsError } from './evaluators-error.js';

/** No evaluator is registered for a type. `knownTypes` lists the registered ones. */
export class UnknownEvaluatorError extends EvaluatorsError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.unknown-evaluator-error');
  override readonly name = 'UnknownEvaluatorError';
  readonly type: string;
  readonly knownTypes: readonly string[];

  constructor(type: string, knownTypes: readonly string[], message: string) {
    super(message);
    this.type = type;
    this.knownTypes = knownTypes;
  }
}
