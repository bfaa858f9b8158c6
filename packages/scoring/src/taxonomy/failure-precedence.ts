import { FAILURE_REASONS, type FailureReason } from '@agentbench/schemas';
import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';

/**
 * Which failure reason is reported when several apply, most important first.
 *
 * The rule: report the root cause. An interruption explains everything after it; a broken
 * sandbox or a bug of ours makes every later observation unreliable; after that, the earlier
 * pipeline stage wins (clone, checkout, setup, baseline, agent, tests), because a later
 * stage only ran on what the earlier one left behind. Within the agent stage, failures of
 * the provider and the tools (not the agent's fault) come before budget exhaustion, and
 * budget exhaustion before the plain "tests still fail" verdict. A diff that changed the task's
 * tests (TESTS_TAMPERED) outranks what the agent's budgets and tests say; a diff a scanner flags
 * (SUSPECTED_TAMPERING, only with --fail-on-suspicion) comes right after it: a suspicion is weaker
 * evidence than a proven change of the tests, and stronger than what tests it may have fooled say.
 * A test report that is missing or does not name a required test (TESTS_NOT_REPORTED) says less
 * than no tests at all and more than a named test failing. UNKNOWN is the catch-all.
 */
export const FAILURE_REASON_PRECEDENCE = [
  'INTERRUPTED',
  'SANDBOX_ERROR',
  'INTERNAL_ERROR',
  'GIT_CLONE_FAILED',
  'GIT_CHECKOUT_FAILED',
  'SETUP_TIMEOUT',
  'SETUP_FAILED',
  'SETUP_DIRTY_WORKTREE',
  'BASELINE_NOT_FAILING',
  'BASELINE_MISMATCH',
  'BASELINE_FLAKY',
  'LLM_ERROR',
  'TOOL_ERROR',
  'TESTS_TAMPERED',
  'SUSPECTED_TAMPERING',
  'TIMEOUT',
  'AGENT_GAVE_UP',
  'NO_TESTS_COLLECTED',
  'TESTS_NOT_REPORTED',
  'TESTS_FAILED',
  'UNKNOWN',
] as const satisfies readonly FailureReason[];

const rankByReason = new Map<string, number>(FAILURE_REASON_PRECEDENCE.map((reason, index) => [reason, index]));

/** True when `value` is one of the stable FailureReason strings. */
export function isFailureReason(value: unknown): value is FailureReason {
  return typeof value === 'string' && (FAILURE_REASONS as readonly string[]).includes(value);
}

/** Position in FAILURE_REASON_PRECEDENCE: 0 is the most important. */
export function failureReasonRank(reason: FailureReason): number {
  // A reason added to the schema but not yet ranked sorts just before UNKNOWN rather than crashing.
  return rankByReason.get(reason) ?? FAILURE_REASON_PRECEDENCE.length - 1.5;
}

/** Sort comparator: the more important reason first. */
export function compareFailureReasons(left: FailureReason, right: FailureReason): number {
  return failureReasonRank(left) - failureReasonRank(right);
}

/**
 * The reason to report when several stages each produced one. `null`/`undefined` entries
 * (stages that succeeded or did not run) are ignored; with no reason at all the result is null.
 */
export function pickFailureReason(candidates: Iterable<FailureReason | null | undefined>): FailureReason | null {
  let best: FailureReason | null = null;
  let index = 0;
  for (const candidate of candidates) {
    const field = `candidates[${index}]`;
    index += 1;
    if (candidate === null || candidate === undefined) continue;
    if (!isFailureReason(candidate)) {
      throw new ScoringError(field, `expected a FailureReason (${FAILURE_REASONS.join(', ')}), found ${describeValue(candidate)}`);
    }
    if (best === null || compareFailureReasons(candidate, best) < 0) best = candidate;
  }
  return best;
}
