import { AgentLoopError } from './agent-loop-error.js';

/** What went wrong talking to the model, normalised across providers. */
export const LLM_ERROR_KINDS = [
  'rate_limit',
  'server_error',
  'timeout',
  'auth',
  'bad_request',
  'malformed_response',
  'network',
  'aborted',
] as const;
export type LlmErrorKind = (typeof LLM_ERROR_KINDS)[number];

export interface LlmErrorDetails {
  kind: LlmErrorKind;
  /** HTTP status, when the provider answered. */
  status?: number;
  /** Whether another try could succeed (rate limits, 5xx, timeouts, dropped connections). */
  isRetryable: boolean;
  /** How long the provider asked us to wait (Retry-After / retry-after-ms), in milliseconds. */
  retryAfterMs?: number;
  /** Tries made before giving up, when the error ends a retry loop. */
  attempts?: number;
  /** The provider's request id, for support tickets. */
  requestId?: string;
  cause?: unknown;
}

/**
 * A model call failed. Always recorded as LLM_ERROR (`errorKind: 'llm'` for @agentbench/scoring),
 * except an abort, which is an interruption.
 */
export class LlmError extends AgentLoopError {
  static override readonly marker: symbol = Symbol.for('agentbench.agent-loop.llm-error');
  override readonly name = 'LlmError';
  readonly kind: LlmErrorKind;
  readonly errorKind: 'llm' | 'interrupt';
  readonly status?: number;
  readonly isRetryable: boolean;
  readonly retryAfterMs?: number;
  readonly attempts?: number;
  readonly requestId?: string;

  constructor(message: string, details: LlmErrorDetails) {
    super(message, {
      cause: details.cause,
      failureReason: details.kind === 'aborted' ? 'INTERRUPTED' : 'LLM_ERROR',
    });
    this.kind = details.kind;
    this.errorKind = details.kind === 'aborted' ? 'interrupt' : 'llm';
    this.isRetryable = details.isRetryable;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.attempts !== undefined) this.attempts = details.attempts;
    if (details.requestId !== undefined) this.requestId = details.requestId;
  }

  /** The same error, noting how many tries were made. */
  withAttempts(attempts: number): LlmError {
    const suffix = attempts > 1 ? ` (after ${attempts} tries)` : '';
    const copy = new LlmError(`${this.message}${suffix}`, {
      kind: this.kind,
      isRetryable: this.isRetryable,
      attempts,
      cause: this.cause,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
    });
    return copy;
  }
}
