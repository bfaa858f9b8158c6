import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox } from '@agentbench/sandbox';
import { AttemptInterruptedError } from '../../errors/attempt-interrupted-error.js';
import { describeExit } from '../../setup/run-setup-commands.js';
import { checkBaselineExpectations, type BaselineMismatch } from '../../validation/check-baseline-expectations.js';
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
  const run = await runTestCommand(context, sandbox, 'baseline_run');
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
  context.mismatches = checkBaselineExpectations(validation, { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr });
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

function sameList(left: readonly string[], right: readonly string[]): boolean {
  const sortedLeft = [...left].sort();
  const sortedRight = [...right].sort();
  return sortedLeft.length === sortedRight.length && sortedLeft.every((value, index) => value === sortedRight[index]);
}
