import { AgentBenchError } from '@agentbench/schemas';

const cassetteMarker = Symbol.for('agentbench.cassette-error');

/**
 * Base error of @agentbench/cassette: a cassette that cannot be read or does not fit the run, an
 * upstream that cannot be reached, an option the proxy cannot use. `isInstance` works across
 * copies of the package.
 */
export class CassetteError extends AgentBenchError {
  readonly [cassetteMarker] = true;
  override readonly name: string = 'CassetteError';

  static override isInstance(value: unknown): value is CassetteError {
    return typeof value === 'object' && value !== null && cassetteMarker in value;
  }
}
