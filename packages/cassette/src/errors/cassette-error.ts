import { MarkedError } from '@agentbench/schemas';

/**
 * Base error of @agentbench/cassette: a cassette that cannot be read or does not fit the run, an
 * upstream that cannot be reached, an option the proxy cannot use. `isInstance` works across
 * copies of the package.
 */
export class CassetteError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.cassette-error');
  override readonly name: string = 'CassetteError';
}
