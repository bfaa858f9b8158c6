import { MarkedError } from '@agentbench/schemas';

/**
 * Base error of @agentbench/agent-loop. `isInstance` checks a `Symbol.for` marker, so it works
 * across copies of the package. `failureReason`, when set, is how an attempt that hit the error
 * is recorded (`failureReason` of MarkedError).
 */
export class AgentLoopError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.agent-loop-error');
  override readonly name: string = 'AgentLoopError';
}
