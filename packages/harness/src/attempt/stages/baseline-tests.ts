import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox } from '@agentbench/sandbox';
import { AttemptInterruptedError } from '../../errors/attempt-interrupted-error.js';
import { describeExit } from '../../setup/run-setup-commands.js';
import { checkBaselineExpectations, type BaselineMismatch } from '../../validation/check-baseline-expectations.js';
import { checkBaselineReport } from '../../test-report/judge-named-tests.js';
import { UnreadableTestReport } from '../../test-report/junit-report.js';
import { readTestReport, removeTestReport, type ReportCommandRunner } from '../../test-report/read-test-report.js';
import { namedTestsOf, testReportSourceFor, type TestReportSource } from '../../test-report/test-report-source.js';
import { parsePytestFailures } from '../../validation/parse-pytest-failures.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';
import { runTestCommand, TEST_OUTPUT_CAP_BYTES } from './test-run.js';

/** When a valid baseline is run a second time to detect flakiness. */
export type FlakyRerunPolicy = 'auto' | 'always' | 'never';

/** `auto` reruns when the first run took at most this share of `timeout_sec`. */
export const DEFAULT_RERUN_BUDGET_FRACTION = 0.25;

export interface BaselineTestOptions {
  /** Default `auto`. */
  flakyRerun?: FlakyRerunPolicy;
  /** For `auto`. Default 0.25. */
  rerunBudgetFraction?: number;
}

/**
 * The baseline's test run: the tests must fail, as `validation` expects, and (when time allows)
 * fail alike a second time. Returns the success message; stops the attempt otherwise.
 */
export async function runBaselineTests(context: AttemptContext, sandbox: Sandbox, options: BaselineTestOptions): Promise<string> {
  const { task } = context;
  const { environment, validation } = task;
  const source = testReportSourceFor(task, sandbox.workdir, 'repo', randomBytes(8).toString('hex'));
  const runReportCommand: ReportCommandRunner = (argv, logName, outputCapBytes) => context.exec(sandbox, argv, logName, outputCapBytes);
  if (source !== undefined) await removeTestReport(runReportCommand, source);
  const run = await runTestCommand(context, sandbox, 'baseline_run', source?.env);
  const { result } = run;
  let { reason } = run;
  // A task may declare that its test command fails with an exit code pytest reserves for other uses.
  const isDeclaredExit = validation?.expected_exit_codes?.includes(result.exitCode) === true && !result.timedOut && result.killedBy === undefined;
  if (isDeclaredExit && (reason === 'NO_TESTS_COLLECTED' || reason === 'INTERNAL_ERROR')) reason = null;
  context.stages.push({ stage: 'baseline_run', durationMs: result.durationMs, command: task.run.command, exitCode: result.exitCode, timedOut: result.timedOut, failureReason: reason, ...context.logOf(result) });
  if (reason !== null) {
    const why = reason === 'BASELINE_NOT_FAILING' ? 'the tests passed before any change (exit 0); a baseline must fail' : `the test command ${describeExit(result, environment.timeout_sec)}`;
    throw new AttemptStop(reason, why, result.exitCode);
  }
  // With a report, the named tests are read from it, not from the terminal.
  const expectations = source === undefined || validation === undefined ? validation : { ...validation, expected_failing_tests: [] };
  context.mismatches = checkBaselineExpectations(expectations, { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr });
  if (source !== undefined) await checkNamedTestsInReport(context, source, runReportCommand, result.exitCode);
  if (context.mismatches.length > 0) {
    const file = path.join(context.paths.logDir, 'baseline_mismatch.txt');
    await writeFile(file, `${context.mismatches.map((mismatch) => `${mismatch.field}: ${mismatch.message}`).join('\n')}\n`);
    context.artifact('baseline_mismatch', file);
    const first = context.mismatches[0] as BaselineMismatch;
    const more = context.mismatches.length > 1 ? ` (and ${context.mismatches.length - 1} more)` : '';
    throw new AttemptStop('BASELINE_MISMATCH', `${first.field}: ${first.message}${more}`, result.exitCode);
  }

  const policy = options.flakyRerun ?? 'auto';
  const budgetMs = environment.timeout_sec * 1000 * (options.rerunBudgetFraction ?? DEFAULT_RERUN_BUDGET_FRACTION);
  const shouldRerun = policy === 'always' || (policy === 'auto' && result.durationMs <= budgetMs);
  const failing = context.failingTests;
  const failingSummary = `${failing.length} failing test${failing.length === 1 ? '' : 's'}`;
  if (!shouldRerun) {
    return `the tests fail as expected (exit ${result.exitCode}, ${failingSummary}); not rerun: the first run took ${Math.round(result.durationMs)} ms`;
  }
  context.enterStage('baseline_rerun');
  const rerun = await context.exec(sandbox, task.run.command, 'run_rerun', TEST_OUTPUT_CAP_BYTES);
  const rerunFailing = parsePytestFailures(`${rerun.stdout}\n${rerun.stderr}`).all;
  context.stages.push({ stage: 'baseline_rerun', durationMs: rerun.durationMs, command: task.run.command, exitCode: rerun.exitCode, timedOut: rerun.timedOut, ...context.logOf(rerun) });
  if (rerun.killedBy === 'abort') throw new AttemptInterruptedError('baseline_rerun');
  if (rerun.exitCode !== result.exitCode || !sameList(rerunFailing, failing)) {
    const file = path.join(context.paths.logDir, 'baseline_rerun_comparison.txt');
    await writeFile(
      file,
      [
        `run_1_exit_code: ${result.exitCode}`,
        `run_1_failing_tests: ${failing.join(' ') || '(none)'}`,
        `run_2_exit_code: ${rerun.exitCode}`,
        `run_2_failing_tests: ${rerunFailing.join(' ') || '(none)'}`,
        '',
      ].join('\n'),
    );
    context.artifact('baseline_rerun_comparison', file);
    throw new AttemptStop(
      'BASELINE_FLAKY',
      `a second run of the tests gave a different result (exit ${result.exitCode} then ${rerun.exitCode}; failing tests ${failing.length} then ${rerunFailing.length})`,
      rerun.exitCode,
    );
  }
  return `the tests fail as expected (exit ${result.exitCode}, ${failingSummary}), twice alike`;
}

/**
 * The baseline's report: each FAIL_TO_PASS test must be reported failed or errored, each named
 * PASS_TO_PASS test passed (BASELINE_MISMATCH otherwise, beside the other expectations); a
 * missing report or named test stops the attempt as TESTS_NOT_REPORTED, the task's failure. The
 * tests that passed are kept: an agent attempt's PASS_TO_PASS when the task names none.
 */
async function checkNamedTestsInReport(context: AttemptContext, source: TestReportSource, run: ReportCommandRunner, exitCode: number): Promise<void> {
  const report = await readTestReport(run, source);
  if (report instanceof UnreadableTestReport) throw new AttemptStop('TESTS_NOT_REPORTED', `the baseline's tests did not report (exit ${exitCode}): ${report.reason}`, exitCode);
  const named = namedTestsOf(context.task);
  const check = checkBaselineReport(report, { style: source.style, failToPass: named.failToPass, ...(named.passToPass === undefined ? {} : { passToPass: named.passToPass }) });
  context.baselinePassingKeys = check.passingKeys;
  if (check.failureReason === 'TESTS_NOT_REPORTED') throw new AttemptStop('TESTS_NOT_REPORTED', check.message, exitCode);
  if (check.failureReason === 'BASELINE_MISMATCH') context.mismatches.push({ field: check.field ?? 'validation.expected_failing_tests', message: check.message });
}

function sameList(left: readonly string[], right: readonly string[]): boolean {
  const sortedLeft = [...left].sort();
  const sortedRight = [...right].sort();
  return sortedLeft.length === sortedRight.length && sortedLeft.every((value, index) => value === sortedRight[index]);
}
