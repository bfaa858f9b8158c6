import { KindedError } from '@agentbench/schemas';

/** What went wrong, for callers that branch on it. */
export type ScenarioRunnerErrorKind =
  | 'configuration'
  | 'env_file'
  | 'provider_not_installed'
  | 'plugin_not_installed'
  | 'plugin_load_failed'
  | 'mock_configuration'
  | 'mock_script'
  | 'mock_script_timeout'
  | 'unknown_service'
  | 'service_call'
  | 'database'
  | 'agent'
  | 'agent_timeout'
  | 'code_step'
  | 'conversation'
  | 'matrix'
  | 'replay'
  | 'internal';

/**
 * Base error of @agentbench/scenario-runner. Every kind except `internal` describes a problem in the
 * user's input or environment, and its message says what to change. `isInstance` works across copies
 * of the package.
 */
export class ScenarioRunnerError extends KindedError<ScenarioRunnerErrorKind> {
  static override readonly marker: symbol = Symbol.for('agentbench.scenario-runner-error');
  override readonly name: string = 'ScenarioRunnerError';
}
