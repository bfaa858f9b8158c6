import path from 'node:path';
import type { Sandbox } from '@agentbench/sandbox';
import { AttemptInterruptedError } from '../../errors/attempt-interrupted-error.js';
import { runSetupCommands } from '../../setup/run-setup-commands.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';

/**
 * Runs the task's setup commands (with network when there are any), stops the attempt at the
 * first that fails, then cuts the network: nothing after setup has it.
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
  if (context.task.setup.commands.length > 0) await sandbox.setNetwork(false);
  context.throwIfAborted();
}
