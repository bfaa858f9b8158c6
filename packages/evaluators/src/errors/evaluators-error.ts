import { AgentBenchError } from '@agentbench/schemas';

const evaluatorsMarker = Symbol.for('agentbench.evaluators-error');

/** Base error of @agentbench/evaluators. `isInstance` checks a `Symbol.for` marker, so it works across copies of the package. */
export class EvaluatorsError extends AgentBenchError {
  readonly [evaluatorsMarker] = true;
  override readonly name: string = 'EvaluatorsError';

  static override isInstance(value: unknown): value is EvaluatorsError {
    return typeof value === 'object' && value !== null && evaluatorsMarker in value;
  }
}
