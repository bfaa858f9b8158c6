import { AgentBenchError } from '@agentbench/schemas';

const fakeLlmServerMarker = Symbol.for('agentbench.fake-llm-server-error');

/**
 * Base error of @agentbench/fake-llm-server: a bad script, reply or option. The message names
 * the file (for script files), the field path and what was expected. `isInstance` works
 * across copies of the package.
 */
export class FakeLlmServerError extends AgentBenchError {
  readonly [fakeLlmServerMarker] = true;
  override readonly name: string = 'FakeLlmServerError';

  static override isInstance(value: unknown): value is FakeLlmServerError {
    return typeof value === 'object' && value !== null && fakeLlmServerMarker in value;
  }
}
