import { outputExcerpt } from '@agentbench/sandbox';
import type { TaskValidation } from '@agentbench/schemas';
import { parsePytestFailures } from './parse-pytest-failures.js';

/** One `validation` expectation the baseline run did not meet. */
export interface BaselineMismatch {
  /** The field of task.yaml, e.g. `validation.expected_exit_codes`. */
  field: string;
  message: string;
}

export interface BaselineRunOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** The expectation fields; `enforce_clean_setup` is checked after setup, not here. */
export type BaselineExpectations = Omit<Partial<TaskValidation>, 'enforce_clean_setup'>;

const MAX_SHOWN_TESTS = 10;

function compile(source: string): RegExp {
  // Python's re.MULTILINE, as the original project searched: ^ and $ match at every line.
  return new RegExp(source, 'm');
}

function listShort(values: readonly string[]): string {
  if (values.length === 0) return 'none';
  const shown = values.slice(0, MAX_SHOWN_TESTS).join(', ');
  return values.length > MAX_SHOWN_TESTS ? `${shown} and ${values.length - MAX_SHOWN_TESTS} more` : shown;
}

/** Whether `expected` names one of `failing`: the same id, or the same id under a longer path (another rootdir). */
function isAmongFailing(expected: string, failing: readonly string[]): boolean {
  return failing.some((id) => id === expected || id.endsWith(`/${expected}`));
}

/**
 * Checks a baseline run against a task's `validation` block and returns every expectation it
 * misses (empty: all met). The semantics, each a BASELINE_MISMATCH when missed:
 * - `expected_exit_codes`: the exit code is one of them;
 * - `expected_failure_regex`: matches stdout + stderr (joined by a newline);
 * - `expected_stdout_regex` / `expected_stderr_regex`: match stdout / stderr;
 * - `disallowed_failure_regex`: does NOT match stdout + stderr;
 * - `expected_failing_tests`: each id is among the tests pytest reported FAILED or ERROR
 *   (see `parsePytestFailures`), exactly or under a longer path.
 * Regular expressions are JavaScript ones searched with the `m` flag (Python's re.MULTILINE).
 */
export function checkBaselineExpectations(expectations: BaselineExpectations | undefined, output: BaselineRunOutput): BaselineMismatch[] {
  if (expectations === undefined) return [];
  const mismatches: BaselineMismatch[] = [];
  const combined = `${output.stdout}\n${output.stderr}`;
  const {
    expected_exit_codes: expectedExitCodes,
    expected_failure_regex: expectedFailureRegex,
    expected_stdout_regex: expectedStdoutRegex,
    expected_stderr_regex: expectedStderrRegex,
    disallowed_failure_regex: disallowedFailureRegex,
    expected_failing_tests: expectedFailingTests,
  } = expectations;

  if (expectedExitCodes !== undefined && expectedExitCodes.length > 0 && !expectedExitCodes.includes(output.exitCode)) {
    mismatches.push({
      field: 'validation.expected_exit_codes',
      message: `exit code ${output.exitCode} is not one of the expected [${expectedExitCodes.join(', ')}]`,
    });
  }
  if (expectedFailureRegex !== undefined && !compile(expectedFailureRegex).test(combined)) {
    mismatches.push({ field: 'validation.expected_failure_regex', message: `/${expectedFailureRegex}/ does not match the output (stdout + stderr)` });
  }
  if (expectedStdoutRegex !== undefined && !compile(expectedStdoutRegex).test(output.stdout)) {
    mismatches.push({ field: 'validation.expected_stdout_regex', message: `/${expectedStdoutRegex}/ does not match stdout` });
  }
  if (expectedStderrRegex !== undefined && !compile(expectedStderrRegex).test(output.stderr)) {
    mismatches.push({ field: 'validation.expected_stderr_regex', message: `/${expectedStderrRegex}/ does not match stderr` });
  }
  if (disallowedFailureRegex !== undefined) {
    const match = compile(disallowedFailureRegex).exec(combined);
    if (match !== null) {
      const line = combined.slice(combined.lastIndexOf('\n', match.index) + 1).split('\n')[0]?.trim() ?? match[0];
      // The line is the sandbox's output: one escaped line, at most 200 characters.
      mismatches.push({ field: 'validation.disallowed_failure_regex', message: `/${disallowedFailureRegex}/ matches the output: "${outputExcerpt(line)}"` });
    }
  }
  if (expectedFailingTests !== undefined && expectedFailingTests.length > 0) {
    const failing = parsePytestFailures(combined).all;
    const missing = expectedFailingTests.filter((id) => !isAmongFailing(id, failing));
    if (missing.length > 0) {
      mismatches.push({
        field: 'validation.expected_failing_tests',
        message: `${missing.length === 1 ? 'test' : 'tests'} ${listShort(missing)} did not fail (failing tests reported: ${outputExcerpt(listShort(failing))})`,
      });
    }
  }
  return mismatches;
}
