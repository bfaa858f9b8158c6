import { SandboxError } from '../../contract/sandbox-error.js';
import type { ExecRequest, ExitMessage } from './protocol.js';
import { OutputCapture, type CommandOutputOptions } from '../output/output-capture.js';
import type { ExecResult } from '../../contract/sandbox.js';
import type { CommandChannel } from './command-channel.js';
import { openCommandLog, type CommandLog } from '../output/command-log.js';

export interface ChannelExecOptions extends CommandOutputOptions {
  /**
   * How long after the command's own time limit the host still waits for its end (default
   * EXEC_HOST_GRACE_MS). The executor kills a command at its limit and reports at once, so a
   * report this late means the executor or the engine between us stopped answering: the channel
   * is closed with a SandboxError rather than waited on forever.
   */
  hostGraceMs?: number;
}

export const EXEC_HOST_GRACE_MS = 60_000;

/**
 * Runs one command on a channel and assembles its ExecResult: output capped with the
 * marker naming the log file, the output streamed to the callbacks and to the (capped) log,
 * exit codes read as the other backends read them.
 */
export async function execOnChannel(channel: CommandChannel, request: Omit<ExecRequest, 'op'>, options: ChannelExecOptions): Promise<ExecResult> {
  const started = performance.now();
  let log: CommandLog | undefined;
  if (options.logPath !== undefined) {
    try {
      log = await openCommandLog(options.logPath, options.commandText, options.logCapBytes);
    } catch (error) {
      throw new SandboxError('internal', `exec: cannot open the command log ${options.logPath}: ${(error as Error).message}`, {
        subject: options.logPath,
        cause: error,
      });
    }
  }
  const stdout = new OutputCapture(options.outputCapBytes, options.onStdout);
  const stderr = new OutputCapture(options.outputCapBytes, options.onStderr);
  const running = channel.exec(request, {
    onStdout: (chunk) => {
      stdout.push(chunk);
      log?.stdout.write(chunk);
    },
    onStderr: (chunk) => {
      stderr.push(chunk);
      log?.stderr.write(chunk);
    },
  });
  const onAbort = (): void => channel.kill(running.id);
  if (options.signal?.aborted === true) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const graceMs = options.hostGraceMs ?? EXEC_HOST_GRACE_MS;
  let overdueTimer: NodeJS.Timeout | undefined;
  const limitMs = request.timeout_ms;
  // A command without a limit of its own has no point after which its silence means anything.
  const overdue = new Promise<never>((_, reject) => {
    if (limitMs === undefined) return;
    overdueTimer = setTimeout(() => {
      const error = new SandboxError(
        'internal',
        `exec: no end reported for \`${options.commandText}\` ${graceMs / 1000} s after its ${limitMs / 1000} s limit: the sandbox's executor or the engine stopped answering`,
      );
      // Every pending operation of the channel, this command's included, fails with it.
      channel.close(error);
      reject(error);
    }, limitMs + graceMs);
  });
  let exit: ExitMessage;
  try {
    exit = await Promise.race([running.exit, overdue]);
  } catch (error) {
    await log?.close(`--- error: ${(error as Error).message} ---\n`).catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(overdueTimer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  stdout.end();
  stderr.end();
  const durationMs = Math.round(performance.now() - started);
  const result = resultOf(exit, durationMs);
  if (log !== undefined) {
    try {
      const summary = await log.close(`--- exit ${result.exitCode}${result.killedBy === undefined ? '' : ` (${result.killedBy})`} after ${durationMs} ms ---\n`);
      result.logTruncated = summary.isTruncated;
    } catch (error) {
      throw new SandboxError('internal', `exec: ${(error as Error).message}`, { subject: log.path, cause: error });
    }
    result.logPath = log.path;
  }
  result.stdout = stdout.text(options.logPath);
  result.stderr = stderr.text(options.logPath);
  result.truncated = stdout.isTruncated || stderr.isTruncated;
  return result;
}

/** Exit fields of a result; a shell's 128 + n is read as death by signal n, as the local backend does. */
export function resultOf(exit: ExitMessage, durationMs: number): ExecResult {
  const result: ExecResult = { exitCode: exit.code, stdout: '', stderr: '', timedOut: exit.timed_out, truncated: false, durationMs };
  let killedBy = exit.killed_by ?? undefined;
  let signalNumber = exit.signal ?? undefined;
  if (killedBy === undefined && exit.code > 128 && exit.code <= 128 + 64) {
    killedBy = 'signal';
    signalNumber = exit.code - 128;
  }
  if (killedBy !== undefined) result.killedBy = killedBy;
  if (signalNumber !== undefined) result.signal = signalNumber;
  return result;
}
