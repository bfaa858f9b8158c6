import { MarkedError } from './marked-error.js';

/** Base error of @agentbench/schemas. `isInstance` checks a `Symbol.for` marker, so it works across copies of the package. */
export class SchemasError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.schemas-error');
  override readonly name: string = 'SchemasError';
}
