import type { RowStatus } from '../model/report-model.js';

/**
 * For records without a failure class only: failure reasons that mean the attempt could not be
 * judged (infrastructure, our bugs, a broken task setup, a provider outage) rather than that the
 * agent or task failed. They are JUnit `<error>`s; every other reason is a `<failure>`.
 */
export const ERRORED_FAILURE_REASONS: ReadonlySet<string> = new Set([
  'SANDBOX_ERROR',
  'INTERNAL_ERROR',
  'INTERRUPTED',
  'GIT_CLONE_FAILED',
  'GIT_CHECKOUT_FAILED',
  'SETUP_FAILED',
  'SETUP_TIMEOUT',
  'SETUP_DIRTY_WORKTREE',
  'LLM_ERROR',
  'TOOL_ERROR',
  'UNKNOWN',
  'RUN_ERRORED',
]);

/**
 * A row's status. When the record says who caused its failure (`failure_class`), errored means
 * class `infra` only: an agent that killed its own sandbox, raised an interrupt or sent a bad
 * model request failed, it did not error (a JUnit `<failure>`, counted). Without a class (older
 * records, rows read from events alone) the reason decides, as before.
 */
export function statusOf(passed: boolean, failureReason: string | null, failureClass?: string | null): RowStatus {
  if (passed) return 'passed';
  if (failureClass !== undefined && failureClass !== null) return failureClass === 'infra' ? 'errored' : 'failed';
  return failureReason !== null && ERRORED_FAILURE_REASONS.has(failureReason) ? 'errored' : 'failed';
}
