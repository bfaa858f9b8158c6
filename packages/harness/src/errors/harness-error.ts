import { AgentBenchError, type FailureReason } from '@agentbench/schemas';

const harnessMarker = Symbol.for('agentbench.harness-error');

/**
 * Base error of @agentbench/harness. `isInstance` checks a `Symbol.for` marker, so it works
 * across copies of the package. `failureReason`, when set, is how the attempt that hit the
 * error is recorded (read by `failureReasonForError` of @agentbench/scoring).
 */
export class HarnessError extends AgentBenchError {
  readonly [harnessMarker] = true;
  override readonly name: string = 'HarnessError';
  readonly failureReason?: FailureReason;

  constructor(message: string, options?: { cause?: unknown; failureReason?: FailureReason }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.failureReason !== undefined) this.failureReason = options.failureReason;
  }

  static override isInstance(value: unknown): value is HarnessError {
    return typeof value === 'object' && value !== null && harnessMarker in value;
  }
}
