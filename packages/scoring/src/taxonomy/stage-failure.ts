import type { FailureReason, StopReason } from '@agentbench/schemas';
import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';
import { failureReasonForError } from './error-classification.js';
import { failureReasonForStopReason } from './stop-reason-mapping.js';
import { assertProcessOutcome, classifyTestExit, type KilledBy } from './test-exit.js';

/** The stages of an attempt, in the order they run. */
export const STAGES = ['git_clone', 'git_checkout', 'setup', 'baseline_run', 'agent_run', 'final_test'] as const;
export type Stage = (typeof STAGES)[number];

/** What happened in one stage. Give what you know; `stage` is the only required field. */
export interface StageOutcome {
  stage: Stage;
  /** Exit code of the stage's command; required unless `timedOut`, `error` or `stopReason` says enough. */
  exitCode?: number | null;
  timedOut?: boolean;
  killedBy?: KilledBy | null;
  /** agent_run: why the agent loop stopped. */
  stopReason?: StopReason;
  /** An exception the stage threw instead of finishing. */
  error?: unknown;
  /** The run was interrupted (Ctrl+C, SIGTERM) while this stage ran. */
  isInterrupted?: boolean;
}

const TIMEOUT_EXIT_CODES: readonly number[] = [124, 137];

function hasTimedOut(outcome: StageOutcome): boolean {
  return (
    outcome.timedOut === true ||
    outcome.killedBy === 'timeout' ||
    (typeof outcome.exitCode === 'number' && TIMEOUT_EXIT_CODES.includes(outcome.exitCode))
  );
}

function requireExitCode(outcome: StageOutcome): number | null {
  if (outcome.exitCode === undefined) {
    throw new ScoringError(
      'outcome.exitCode',
      `stage ${outcome.stage} needs the exit code of its command (an integer, or null when killed by a signal)`,
    );
  }
  return outcome.exitCode;
}

/**
 * The FailureReason a stage produced, or null when the stage succeeded (for baseline_run:
 * when the baseline failed as a valid task's must).
 *
 * Checked in this order: interruption, then an exception (see `failureReasonForError`), then
 * a kill by the out-of-memory killer or a foreign signal (SANDBOX_ERROR), then the stage:
 * - git_clone / git_checkout: any non-zero exit or a timeout is GIT_CLONE_FAILED /
 *   GIT_CHECKOUT_FAILED (the stage says more than a generic TIMEOUT would);
 * - setup: a timeout (flag, 124 or 137) is SETUP_TIMEOUT, another non-zero exit SETUP_FAILED;
 * - baseline_run: exit 0 is BASELINE_NOT_FAILING, a timeout TIMEOUT; a run that did not
 *   actually run tests (no tests collected, pytest usage or internal error, command not
 *   found) is NO_TESTS_COLLECTED / INTERNAL_ERROR, because a baseline must fail on its tests;
 *   any other failure is a valid baseline (null);
 * - agent_run: the stop reason (see `STOP_REASON_FAILURES`); without one, the exit code as for tests;
 * - final_test: the test exit classification (see `classifyTestExit`).
 */
export function failureReasonForStage(outcome: StageOutcome): FailureReason | null {
  if (typeof outcome !== 'object' || outcome === null) {
    throw new ScoringError('outcome', `expected an object {stage, exitCode?, ...}, found ${describeValue(outcome)}`);
  }
  if (!(STAGES as readonly unknown[]).includes(outcome.stage)) {
    throw new ScoringError('outcome.stage', `expected one of ${STAGES.join(', ')}, found ${describeValue(outcome.stage)}`);
  }
  assertProcessOutcome({ exitCode: outcome.exitCode ?? null, timedOut: outcome.timedOut, killedBy: outcome.killedBy });
  if (outcome.isInterrupted === true || outcome.killedBy === 'abort') return 'INTERRUPTED';
  if (outcome.error !== undefined) return failureReasonForError(outcome.error);
  // Setup that runs out of memory is the task's setup failing within its limits; retrying it
  // (as infrastructure errors are) would only fail again.
  if (outcome.stage === 'setup' && outcome.killedBy === 'oom') return 'SETUP_FAILED';
  if (outcome.killedBy === 'oom' || outcome.killedBy === 'signal') return 'SANDBOX_ERROR';

  switch (outcome.stage) {
    case 'git_clone':
    case 'git_checkout': {
      const failure = outcome.stage === 'git_clone' ? 'GIT_CLONE_FAILED' : 'GIT_CHECKOUT_FAILED';
      if (hasTimedOut(outcome)) return failure;
      return requireExitCode(outcome) === 0 ? null : failure;
    }
    case 'setup': {
      if (hasTimedOut(outcome)) return 'SETUP_TIMEOUT';
      return requireExitCode(outcome) === 0 ? null : 'SETUP_FAILED';
    }
    case 'baseline_run': {
      if (hasTimedOut(outcome)) return 'TIMEOUT';
      const exitCode = requireExitCode(outcome);
      const { reason } = classifyTestExit({ exitCode });
      if (reason === null) return 'BASELINE_NOT_FAILING';
      if (reason === 'NO_TESTS_COLLECTED' || reason === 'INTERNAL_ERROR' || reason === 'INTERRUPTED') return reason;
      return null;
    }
    case 'agent_run': {
      if (outcome.stopReason !== undefined) return failureReasonForStopReason(outcome.stopReason);
      if (hasTimedOut(outcome)) return 'TIMEOUT';
      if (outcome.exitCode === undefined) {
        throw new ScoringError('outcome.stopReason', 'stage agent_run needs the stop reason of the agent loop (or an exit code)');
      }
      return classifyTestExit({ exitCode: outcome.exitCode }).reason;
    }
    case 'final_test': {
      if (hasTimedOut(outcome)) return 'TIMEOUT';
      return classifyTestExit({ exitCode: requireExitCode(outcome) }).reason;
    }
  }
}
