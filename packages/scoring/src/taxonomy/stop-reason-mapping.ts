import { STOP_REASONS, type FailureReason, type StopReason } from '@agentbench/schemas';
import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';

/**
 * How the agent loop's stop reason reads in the failure taxonomy.
 *
 * MAX_STEPS, MAX_TOKENS, MAX_COST and REPEATED_FAILURE all mean the agent did not get there
 * within its budget (the loop stopped it, it did not crash), so they are AGENT_GAVE_UP, as a
 * voluntary stop is.
 * MAX_TIME is the wall-clock budget, so it is TIMEOUT: reports then put every "ran out of
 * time" in one bucket, whichever layer enforced it.
 */
export const STOP_REASON_FAILURES = {
  SUCCESS: null,
  MAX_STEPS: 'AGENT_GAVE_UP',
  MAX_TIME: 'TIMEOUT',
  MAX_TOKENS: 'AGENT_GAVE_UP',
  MAX_COST: 'AGENT_GAVE_UP',
  AGENT_GAVE_UP: 'AGENT_GAVE_UP',
  REPEATED_FAILURE: 'AGENT_GAVE_UP',
  TOOL_ERROR: 'TOOL_ERROR',
  LLM_ERROR: 'LLM_ERROR',
  INTERRUPTED: 'INTERRUPTED',
} as const satisfies Record<StopReason, FailureReason | null>;

/** The FailureReason for the agent loop's stop reason; null for SUCCESS. */
export function failureReasonForStopReason(stopReason: StopReason): FailureReason | null {
  if (!(STOP_REASONS as readonly unknown[]).includes(stopReason)) {
    throw new ScoringError('stopReason', `expected one of ${STOP_REASONS.join(', ')}, found ${describeValue(stopReason)}`);
  }
  return STOP_REASON_FAILURES[stopReason];
}
