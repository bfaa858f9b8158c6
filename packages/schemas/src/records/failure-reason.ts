import * as v from 'valibot';

/** Why an attempt or a baseline validation did not succeed. Values are stable: they are written to disk. */
export const FAILURE_REASONS = [
  'SETUP_FAILED',
  'SETUP_TIMEOUT',
  'SETUP_DIRTY_WORKTREE',
  'BASELINE_NOT_FAILING',
  'BASELINE_MISMATCH',
  'BASELINE_FLAKY',
  'TIMEOUT',
  'SANDBOX_ERROR',
  'GIT_CLONE_FAILED',
  'GIT_CHECKOUT_FAILED',
  'TOOL_ERROR',
  'TESTS_FAILED',
  'TESTS_TAMPERED',
  'TESTS_NOT_REPORTED',
  'AGENT_GAVE_UP',
  'LLM_ERROR',
  'NO_TESTS_COLLECTED',
  'INTERNAL_ERROR',
  'INTERRUPTED',
  'UNKNOWN',
  // Appended: the values above keep their order (they are written to disk and counted in this order).
  'SUSPECTED_TAMPERING',
] as const;

export const FailureReasonSchema = v.picklist(FAILURE_REASONS);
export type FailureReason = v.InferOutput<typeof FailureReasonSchema>;
