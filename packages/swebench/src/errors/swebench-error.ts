import { AgentBenchError } from '@agentbench/schemas';

const swebenchMarker = Symbol.for('agentbench.swebench-error');

/** Base error of @agentbench/swebench. `isInstance` checks a `Symbol.for` marker, so it works across copies of the package. */
export class SwebenchError extends AgentBenchError {
  readonly [swebenchMarker] = true;
  override readonly name: string = 'SwebenchError';

  static override isInstance(value: unknown): value is SwebenchError {
    return typeof value === 'object' && value !== null && swebenchMarker in value;
  }
}
