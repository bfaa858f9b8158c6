import type { FailureReason } from '@agentbench/schemas';
import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';

/**
 * Who ended the process, when the caller knows it. Our sandboxes report a command they
 * timed out as exit code 124 and one they killed as 137; `killedBy` keeps apart the cases
 * that a bare 137 cannot: the time limit, the kernel's out-of-memory killer, our own
 * interruption (Ctrl+C on the harness), or some other external signal.
 */
export type KilledBy = 'timeout' | 'oom' | 'abort' | 'signal';

/** What a finished command looked like from outside. */
export interface ProcessOutcome {
  /** Exit code; `null` when the process died from a signal and no code was reported. */
  exitCode: number | null;
  /** The sandbox stopped the command because it exceeded its time limit. */
  timedOut?: boolean;
  killedBy?: KilledBy | null;
}

/** Finer-grained cause than the FailureReason, for logs and reports. */
export type TestExitCause =
  | 'passed'
  | 'tests_failed'
  | 'collection_error_or_interrupted'
  | 'pytest_internal_error'
  | 'pytest_usage_error'
  | 'no_tests_collected'
  | 'max_warnings_exceeded'
  | 'timed_out'
  | 'timeout_exit_code'
  | 'killed'
  | 'oom'
  | 'interrupted'
  | 'killed_by_signal'
  | 'command_not_executable'
  | 'command_not_found'
  | 'unrecognized_exit_code';

export interface TestExitClassification {
  /** null when the tests passed. */
  reason: FailureReason | null;
  cause: TestExitCause;
}

const KILLED_BY_VALUES: readonly KilledBy[] = ['timeout', 'oom', 'abort', 'signal'];

function classification(reason: FailureReason | null, cause: TestExitCause): TestExitClassification {
  return { reason, cause };
}

/** Checks the shape, so that a typo in a JavaScript caller is an error and not a silent UNKNOWN. */
export function assertProcessOutcome(outcome: ProcessOutcome, field = 'outcome'): void {
  if (typeof outcome !== 'object' || outcome === null) {
    throw new ScoringError(field, `expected an object {exitCode, timedOut?, killedBy?}, found ${describeValue(outcome)}`);
  }
  if (outcome.exitCode !== null && !Number.isInteger(outcome.exitCode)) {
    throw new ScoringError(`${field}.exitCode`, `expected an integer or null, found ${describeValue(outcome.exitCode)}`);
  }
  if (outcome.timedOut !== undefined && typeof outcome.timedOut !== 'boolean') {
    throw new ScoringError(`${field}.timedOut`, `expected a boolean, found ${describeValue(outcome.timedOut)}`);
  }
  if (outcome.killedBy !== undefined && outcome.killedBy !== null && !KILLED_BY_VALUES.includes(outcome.killedBy)) {
    throw new ScoringError(
      `${field}.killedBy`,
      `expected one of ${KILLED_BY_VALUES.join(', ')} or null, found ${describeValue(outcome.killedBy)}`,
    );
  }
}

/**
 * Classifies how a test command ended, pytest conventions first
 * (https://docs.pytest.org/en/stable/reference/exit-codes.html), then shell and
 * timeout(1) conventions. What the sandbox knows (timed out, killed by whom) beats the code.
 *
 * pytest's exit code 2 is documented as "interrupted by the user", but pytest also exits
 * with 2 when collection fails (a syntax or import error in a test module; pytest-dev/pytest#4603).
 * Inside a sandbox nobody presses Ctrl+C at pytest, so 2 almost always means the code under
 * test does not even import: we report TESTS_FAILED and keep INTERRUPTED for our own
 * interruptions (`killedBy: 'abort'`), which would otherwise outrank every other reason.
 */
export function classifyTestExit(outcome: ProcessOutcome): TestExitClassification {
  assertProcessOutcome(outcome);
  const { exitCode, timedOut, killedBy } = outcome;
  if (killedBy === 'abort') return classification('INTERRUPTED', 'interrupted');
  if (timedOut === true || killedBy === 'timeout') return classification('TIMEOUT', 'timed_out');
  // The kernel killed the test run for memory: the environment's limit, not the agent's verdict.
  if (killedBy === 'oom') return classification('SANDBOX_ERROR', 'oom');
  if (killedBy === 'signal') return classification('SANDBOX_ERROR', 'killed_by_signal');
  switch (exitCode) {
    case 0:
      return classification(null, 'passed');
    case 1:
      return classification('TESTS_FAILED', 'tests_failed');
    case 2:
      return classification('TESTS_FAILED', 'collection_error_or_interrupted');
    case 3:
      return classification('INTERNAL_ERROR', 'pytest_internal_error');
    case 4:
      return classification('INTERNAL_ERROR', 'pytest_usage_error');
    case 5:
      return classification('NO_TESTS_COLLECTED', 'no_tests_collected');
    case 6:
      // pytest >= 8.4 with --max-warnings: the tests ran but the run is a failure.
      return classification('TESTS_FAILED', 'max_warnings_exceeded');
    case 124:
      // timeout(1) exits with 124 when it stopped the command.
      return classification('TIMEOUT', 'timeout_exit_code');
    case 126:
      return classification('INTERNAL_ERROR', 'command_not_executable');
    case 127:
      return classification('INTERNAL_ERROR', 'command_not_found');
    case 130:
      // 128 + SIGINT.
      return classification('INTERRUPTED', 'interrupted');
    case 137:
      // 128 + SIGKILL: our sandboxes kill a command that overran its time limit this way.
      return classification('TIMEOUT', 'killed');
    case null:
      return classification('UNKNOWN', 'killed_by_signal');
    default:
      return classification('UNKNOWN', 'unrecognized_exit_code');
  }
}

/** The FailureReason for a test command's outcome; null when the tests passed. */
export function failureReasonForTestExit(outcome: ProcessOutcome): FailureReason | null {
  return classifyTestExit(outcome).reason;
}

/** Shorthand for a bare exit code: `failureReasonForExitCode(137)` is TIMEOUT. */
export function failureReasonForExitCode(exitCode: number): FailureReason | null {
  return failureReasonForTestExit({ exitCode });
}
