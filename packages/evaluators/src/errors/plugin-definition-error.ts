import { EvaluatorsError } from './evaluators-error.js';

/** `definePlugin` or `defineEvaluator` got a definition of the wrong shape; the message names the field. */
export class PluginDefinitionError extends EvaluatorsError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.plugin-definition-error');
  override readonly name = 'PluginDefinitionError';
}
