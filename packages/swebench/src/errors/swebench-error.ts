import { MarkedError } from '@agentbench/schemas';

/** Base error of @agentbench/swebench. `isInstance` checks a `Symbol.for` marker, so it works across copies of the package. */
export class SwebenchError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.swebench-error');
  override readonly name: string = 'SwebenchError';
}
