import path from 'node:path';
import type { Sandbox } from '@agentbench/sandbox';
import { AttemptInterruptedError } from '../../errors/attempt-interrupted-error.js';
import { runSetupCommands } from '../../setup/run-setup-commands.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';

/**
 * Runs the task's setup commands (with network when there are any) and stops the attempt at the
 * first that fails. The network is cut next, by `cutNetworkAfterSetup`: nothing after setup has it.
 */
export async function runSetup(context: AttemptContext, sandbox: Sandbox, repoPath: string): Promise<void> {
  const failure = await runSetupCommands({
    sandbox,
    task: context.task,
    repoPath,
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    onResult: (result, { written, run, failureReason }) => {
      context.setupCommands.push({ written, run });
      if (result.logPath !== undefined) context.artifact(`${path.basename(result.logPath, '.log')}_log`, result.logPath);
      context.stages.push({ stage: 'setup', durationMs: result.durationMs, command: run, exitCode: result.exitCode, timedOut: result.timedOut, failureReason, ...context.logOf(result) });
      context.lastExitCode = result.exitCode;
    },
  });
  if (failure?.failureReason === 'INTERRUPTED') throw new AttemptInterruptedError('setup');
  if (failure !== undefined) throw new AttemptStop(failure.failureReason, failure.message, failure.exitCode);
}

/**
 * Cuts the sandbox's network once setup has ended, while `beside` (host work over the finished
 * setup: the post-setup snapshot) runs: cutting it is an engine call that runs no sandbox
 * command, so the two need not wait for each other. A failed cut is reported first, as the setup
 * stage's; then the stage is the post-setup check, whose failure `beside` may carry.
 */
export async function cutNetworkAfterSetup<T>(context: AttemptContext, sandbox: Sandbox, beside: Promise<T>): Promise<T> {
  const cut = context.task.setup.commands.length > 0 ? sandbox.setNetwork(false) : Promise.resolve();
  const [cutOutcome, besideOutcome] = await Promise.allSettled([cut, beside]);
  if (cutOutcome.status === 'rejected') throw cutOutcome.reason;
  context.throwIfAborted();
  context.enterStage('post_setup_check');
  if (besideOutcome.status === 'rejected') throw besideOutcome.reason;
  return besideOutcome.value;
}
