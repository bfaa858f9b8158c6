import { MarkedError } from '@agentbench/schemas';

/**
 * Base error of @agentbench/fake-llm-server: a bad script, reply or option. The message names
 * the file (for script files), the field path and what was expected. `isInstance` works
 * across copies of the package.
 */
export class FakeLlmServerError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.fake-llm-server-error');
  override readonly name: string = 'FakeLlmServerError';
}
