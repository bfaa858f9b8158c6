import type { AgentLoopResult } from '@agentbench/agent-loop';
import type { AttemptRecord, FailureReason } from '@agentbench/schemas';
import type { VerdictOutcome } from '../verdict/final-verdict.js';

/** What one oracle run of `--oracle-runs` showed about the task. */
export type OracleRunOutcome =
  | { kind: 'passed' }
  /** The run could not be judged (infrastructure, interruption): no claim either way. */
  | { kind: 'errored'; reason: FailureReason }
  /** The reference agent applied no patch: the reference patch does not fit the task's commit. */
  | { kind: 'not_applied'; reason: string }
  /** The patch applied and the final test judged it: it does not fix the task. */
  | { kind: 'failed'; reason: FailureReason | 'failed' };

// Reasons that say the run could not be judged, as validate-suite counts them `errored`.
export const UNJUDGED_REASONS: ReadonlySet<string> = new Set(['INTERRUPTED', 'INTERNAL_ERROR', 'SANDBOX_ERROR', 'UNKNOWN']);

export function isUnjudged(record: AttemptRecord): boolean {
  return record.result.failure_reason !== null && UNJUDGED_REASONS.has(record.result.failure_reason);
}

/**
 * Reads an oracle run. The reference agent never claims success (the loop records its `done` while
 * the tests fail as AGENT_GAVE_UP, which outranks TESTS_FAILED), so a patch that applied is judged
 * by the final test's own reason; a run whose loop applied no patch at all says the patch does not
 * apply, whatever the loop's stop reason (the oracle gives up, a tool error).
 */
export function oracleRunOutcome(run: { record: AttemptRecord; loop?: AgentLoopResult; verdict?: VerdictOutcome }): OracleRunOutcome {
  const { record } = run;
  if (record.result.passed) return { kind: 'passed' };
  if (isUnjudged(record)) return { kind: 'errored', reason: record.result.failure_reason as FailureReason };
  if (run.loop !== undefined && run.loop.patches.length === 0) {
    // The loop's message carries apply_patch's refusal; its first line names the hunk and file.
    const refusal = run.loop.message.split('\n')[0]?.trim() ?? '';
    return { kind: 'not_applied', reason: `the reference patch did not apply (${refusal === '' ? run.loop.stopReason : refusal})` };
  }
  return { kind: 'failed', reason: run.verdict?.failureReason ?? record.result.failure_reason ?? 'failed' };
}
