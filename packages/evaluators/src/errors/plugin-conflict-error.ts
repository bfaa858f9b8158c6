import { EvaluatorsError } from './evaluators-error.js';

/**
 * Loaded plugins clash: two register the same evaluator type (or provider, condition, service), one
 * overrides a built-in evaluator, or one plugin is loaded twice in different versions or from different places.
 */
export class PluginConflictError extends EvaluatorsError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.plugin-conflict-error');
  override readonly name = 'PluginConflictError';
}
