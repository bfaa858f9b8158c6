import { EvaluatorsError } from './evaluators-error.js';

/**
 * An evaluator cannot run with what the run produced: a conversation evaluator on a single-turn step,
 * `command_exit_code_is` without an environment to run in, `execution_time` without a duration.
 */
export class EvaluationContextError extends EvaluatorsError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.evaluation-context-error');
  override readonly name = 'EvaluationContextError';
}
