import { AgentBenchError } from './agentbench-error.js';

const schemasMarker = Symbol.for('agentbench.schemas-error');

/** Base error of @agentbench/schemas. `isInstance` checks a `Symbol.for` marker, so it works across copies of the package. */
export class SchemasError extends AgentBenchError {
  readonly [schemasMarker] = true;
  override readonly name: string = 'SchemasError';

  static override isInstance(value: unknown): value is SchemasError {
    return typeof value === 'object' && value !== null && schemasMarker in value;
  }
}
