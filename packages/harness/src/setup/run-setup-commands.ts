import path from 'node:path';
import { outputExcerpt, type ExecResult, type Sandbox } from '@agentbench/sandbox';
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
  onResult?: (result: ExecResult, command: { written: string; run: string; failureReason: FailureReason | null }) => void;
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
    const reason = failureReasonForStage({ stage: 'setup', exitCode: result.exitCode, timedOut: result.timedOut, ...(result.killedBy === undefined ? {} : { killedBy: result.killedBy }) });
    options.onResult?.(result, { written, run: command, failureReason: reason });
    if (reason !== null) {
      return { failureReason: reason, message: `setup command ${index + 1} (${written}) ${describeExit(result, task.environment.timeout_sec)}`, exitCode: result.exitCode };
    }
  }
  return undefined;
}

/** How a command ended, for a message; the output it quotes is sandbox-written, so one escaped line of at most 200 characters. */
export function describeExit(result: ExecResult, timeoutSec: number): string {
  if (result.timedOut || result.killedBy === 'timeout') return `timed out after ${timeoutSec} s`;
  if (result.killedBy === 'abort') return 'was interrupted';
  if (result.killedBy === 'oom') return 'was killed by the out-of-memory killer (the sandbox memory limit)';
  const detail = outputExcerpt(lastLine(result.stderr) || lastLine(result.stdout));
  return `exited with ${result.exitCode}${detail === '' ? '' : `: ${detail}`}`;
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return lines[lines.length - 1] ?? '';
}
