import type { Sandbox } from '@agentbench/sandbox';
import { describeExit } from '../../setup/run-setup-commands.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';
import { runTestCommand } from './test-run.js';

/**
 * `ab run-task`'s final stage: records what ran where (its failure changes nothing), then runs
 * the test command in the attempt's own sandbox. Returns the success message; stops otherwise.
 */
export async function runFinalTest(context: AttemptContext, sandbox: Sandbox): Promise<string> {
  const { task } = context;
  const probe = await context.exec(sandbox, 'uname -a; python3 -VV || python -VV; python3 -m pip --version; python3 -m pytest --version; true', 'environment');
  context.stages.push({ stage: 'post_setup_check', durationMs: probe.durationMs, command: 'environment', exitCode: probe.exitCode, ...context.logOf(probe) });
  context.throwIfAborted();
  const { result, reason } = await runTestCommand(context, sandbox, 'final_test');
  context.stages.push({ stage: 'final_test', durationMs: result.durationMs, command: task.run.command, exitCode: result.exitCode, timedOut: result.timedOut, failureReason: reason, ...context.logOf(result) });
  if (reason !== null) {
    const failing = context.failingTests.length > 0 ? ` (${context.failingTests.length} failing)` : '';
    throw new AttemptStop(reason, `the test command ${describeExit(result, task.environment.timeout_sec)}${failing}`, result.exitCode);
  }
  return 'the tests passed (exit 0)';
}
