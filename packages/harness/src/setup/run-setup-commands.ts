import path from 'node:path';
import type { ExecResult, Sandbox } from '@agentbench/sandbox';
import type { FailureReason, Task } from '@agentbench/schemas';
import { failureReasonForStage } from '@agentbench/scoring';
import { normalizeSetupCommand } from './normalize-setup-command.js';

export interface SetupCommandFailure {
  failureReason: FailureReason;
  message: string;
  exitCode: number;
}

export interface RunSetupCommandsOptions {
  sandbox: Sandbox;
  task: Task;
  /** The repository folder, relative to the workspace. */
  repoPath: string;
  /** Log files are named `<logPrefix>setup_<n>`. */
  logPrefix?: string;
  signal?: AbortSignal;
  /** Told of each command's result (artifacts, timings). */
  onResult?: (result: ExecResult, command: { written: string; run: string }) => void;
}

/**
 * Runs the task's setup commands in order (pip installs normalised as the harness runs them)
 * and stops at the first that fails; returns why, or undefined when all succeeded. A command
 * ended by our abort returns INTERRUPTED.
 */
export async function runSetupCommands(options: RunSetupCommandsOptions): Promise<SetupCommandFailure | undefined> {
  const { sandbox, task } = options;
  const sitePackages = path.posix.join(task.environment.workdir, 'site-packages');
  for (const [index, written] of task.setup.commands.entries()) {
    const command = normalizeSetupCommand(written, { targetDir: sitePackages, runCommand: task.run.command });
    const result = await sandbox.exec(command, {
      cwd: options.repoPath,
      timeoutSec: task.environment.timeout_sec,
      logName: `${options.logPrefix ?? ''}setup_${index + 1}`,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    options.onResult?.(result, { written, run: command });
    const reason = failureReasonForStage({ stage: 'setup', exitCode: result.exitCode, timedOut: result.timedOut, ...(result.killedBy === undefined ? {} : { killedBy: result.killedBy }) });
    if (reason !== null) {
      const how = result.timedOut ? `timed out after ${task.environment.timeout_sec} s` : result.killedBy === 'abort' ? 'was interrupted' : `exited with ${result.exitCode}`;
      return { failureReason: reason, message: `setup command ${index + 1} (${written}) ${how}`, exitCode: result.exitCode };
    }
  }
  return undefined;
}
