import { AgentBenchError, type FailureReason } from '@agentbench/schemas';

const agentLoopMarker = Symbol.for('agentbench.agent-loop-error');

/**
 * Base error of @agentbench/agent-loop. `isInstance` checks a `Symbol.for` marker, so it works
 * across copies of the package. `failureReason`, when set, is how an attempt that hit the error
 * is recorded (read by `failureReasonForError` of @agentbench/scoring).
 */
export class AgentLoopError extends AgentBenchError {
  readonly [agentLoopMarker] = true;
  override readonly name: string = 'AgentLoopError';
  readonly failureReason?: FailureReason;

  constructor(message: string, options?: { cause?: unknown; failureReason?: FailureReason }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.failureReason !== undefined) this.failureReason = options.failureReason;
  }

  static override isInstance(value: unknown): value is AgentLoopError {
    return typeof value === 'object' && value !== null && agentLoopMarker in value;
  }
}
