import type { Sandbox } from '@agentbench/sandbox';
import { failureReasonForStage } from '@agentbench/scoring';
import { describeExit } from '../../setup/run-setup-commands.js';
import { parsePytestFailures } from '../../validation/parse-pytest-failures.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';

/** Bytes of stdout and of stderr of the test command kept in memory for the checks (the full output is in the log). */
export const TEST_OUTPUT_CAP_BYTES = 8 * 1024 * 1024;

/**
 * `ab run-task`'s final stage: records what ran where (its failure changes nothing), then runs
 * the test command in the attempt's own sandbox. Returns the success message; stops otherwise.
 */
export async function runFinalTest(context: AttemptContext, sandbox: Sandbox): Promise<string> {
  const { task } = context;
  const probe = await context.exec(sandbox, 'uname -a; python3 -VV || python -VV; python3 -m pip --version; python3 -m pytest --version; true', 'environment');
  context.stages.push({ stage: 'post_setup_check', durationMs: probe.durationMs, command: 'environment', exitCode: probe.exitCode, ...context.logOf(probe) });
  context.throwIfAborted();
  context.enterStage('final_test');
  const result = await context.exec(sandbox, task.run.command, 'run', TEST_OUTPUT_CAP_BYTES);
  context.testExitCode = result.exitCode;
  context.lastExitCode = result.exitCode;
  context.failingTests = parsePytestFailures(`${result.stdout}\n${result.stderr}`).all;
  const reason = failureReasonForStage({ stage: 'final_test', exitCode: result.exitCode, timedOut: result.timedOut, killedBy: result.killedBy ?? null });
  context.stages.push({ stage: 'final_test', durationMs: result.durationMs, command: task.run.command, exitCode: result.exitCode, timedOut: result.timedOut, failureReason: reason, ...context.logOf(result) });
  if (reason !== null) {
    const failing = context.failingTests.length > 0 ? ` (${context.failingTests.length} failing)` : '';
    throw new AttemptStop(reason, `the test command ${describeExit(result, task.environment.timeout_sec)}${failing}`, result.exitCode);
  }
  return 'the tests passed (exit 0)';
}
