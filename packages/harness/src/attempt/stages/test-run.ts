import type { ExecResult, Sandbox } from '@agentbench/sandbox';
import type { FailureReason } from '@agentbench/schemas';
import { failureReasonForStage } from '@agentbench/scoring';
import { parsePytestFailures } from '../../validation/parse-pytest-failures.js';
import type { AttemptContext } from '../attempt-context.js';

/** Bytes of stdout and of stderr of the test command kept in memory for the checks (the full output is in the log). */
export const TEST_OUTPUT_CAP_BYTES = 8 * 1024 * 1024;

/** Runs the task's test command in the repository (log `run`; `env`: the harness's report request) and reads it: exit code, failing tests, the stage's failure reason. */
export async function runTestCommand(context: AttemptContext, sandbox: Sandbox, stage: 'baseline_run' | 'final_test', env?: Record<string, string>): Promise<{ result: ExecResult; reason: FailureReason | null }> {
  context.enterStage(stage);
  const result = await context.exec(sandbox, context.task.run.command, 'run', TEST_OUTPUT_CAP_BYTES, env);
  context.testExitCode = result.exitCode;
  context.lastExitCode = result.exitCode;
  context.failingTests = parsePytestFailures(`${result.stdout}\n${result.stderr}`).all;
  const reason = failureReasonForStage({ stage, exitCode: result.exitCode, timedOut: result.timedOut, killedBy: result.killedBy ?? null });
  return { result, reason };
}
