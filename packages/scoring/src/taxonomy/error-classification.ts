import type { FailureReason } from '@agentbench/schemas';
import { isFailureReason } from './failure-precedence.js';

/** What kind of exception interrupted a stage. */
export type ErrorKind = 'interrupt' | 'sandbox' | 'llm' | 'tool' | 'internal';

export const ERROR_KIND_FAILURES = {
  interrupt: 'INTERRUPTED',
  sandbox: 'SANDBOX_ERROR',
  llm: 'LLM_ERROR',
  tool: 'TOOL_ERROR',
  internal: 'INTERNAL_ERROR',
} as const satisfies Record<ErrorKind, FailureReason>;

// Marker set by @agentbench/sandbox's SandboxError; read here so scoring need not import sandbox.
const sandboxErrorMarker = Symbol.for('agentbench.sandbox-error');

function isObjectLike(value: unknown): value is Record<PropertyKey, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/**
 * Classifies an exception. In order:
 * 1. an error that declares `failureReason` (a FailureReason string) or `errorKind` (an ErrorKind)
 *    is taken at its word: this is how other packages classify their errors without scoring
 *    importing them;
 * 2. a SandboxError of @agentbench/sandbox (its `Symbol.for` marker) is `sandbox`;
 * 3. an error of the `openai` client (an APIError carries `status`, `headers` and `requestID`,
 *    connection errors included) is `llm`;
 * 4. anything else is `internal`: an exception nobody classified is a bug of ours.
 */
export function errorKindOf(error: unknown): ErrorKind {
  if (isObjectLike(error)) {
    const declaredKind = error['errorKind'];
    if (typeof declaredKind === 'string' && declaredKind in ERROR_KIND_FAILURES) return declaredKind as ErrorKind;
    if (sandboxErrorMarker in error) return 'sandbox';
    if ('status' in error && 'headers' in error && 'requestID' in error) return 'llm';
  }
  return 'internal';
}

/** The FailureReason for an exception that ended a stage (see `errorKindOf`). */
export function failureReasonForError(error: unknown): FailureReason {
  if (isObjectLike(error) && isFailureReason(error['failureReason'])) return error['failureReason'];
  return ERROR_KIND_FAILURES[errorKindOf(error)];
}
