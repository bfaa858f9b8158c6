import { AgentBenchError } from '@agentbench/schemas';

const installedAgentMarker = Symbol.for('agentbench.installed-agents-error');

/**
 * Base error of @agentbench/installed-agents: a definition file that is not valid, an agent name
 * that is not defined, an install npm could not make, a cached install whose checksum does not
 * match, a run option an agent cannot use. `isInstance` works across copies of the package.
 */
export class InstalledAgentError extends AgentBenchError {
  readonly [installedAgentMarker] = true;
  override readonly name: string = 'InstalledAgentError';

  static override isInstance(value: unknown): value is InstalledAgentError {
    return typeof value === 'object' && value !== null && installedAgentMarker in value;
  }
}
