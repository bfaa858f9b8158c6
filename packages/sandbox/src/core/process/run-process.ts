import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants as osConstants } from 'node:os';
import { EXIT_CODE_KILLED, EXIT_CODE_TIMEOUT, type ExecResult } from '../../contract/sandbox.js';
import { openCommandLog, type CommandLog } from '../output/command-log.js';
import { OutputCapture, type CommandOutputOptions } from '../output/output-capture.js';
import { killProcessTree, waitForProcessesGone } from './process-tree.js';

export interface RunProcessOptions extends CommandOutputOptions {
  /** Program and arguments, spawned without a shell. */
  argv: readonly string[];
  env: Record<string, string>;
  /** Host working directory of the spawned program. */
  cwd?: string;
  stdin?: string | Uint8Array;
  timeoutMs: number;
  /**
   * `NAME=value` present in the command's environment: on timeout or abort, processes
   * carrying it are killed too, even daemons that left the tree (local backend).
   */
  processMarker?: string;
  /** Told the pid once spawned, and again once the process exited (for exit-time cleanup). */
  onSpawn?: (pid: number) => void;
  onExit?: (pid: number) => void;
}

/** What a run ended with, before a backend interprets it (e.g. OOM from cgroup counters). */
export interface RunProcessResult extends ExecResult {
  /** Processes killed on timeout or abort; the backend may wait for their resources. */
  killedProcessCount: number;
}

/**
 * Spawns one command in its own process group and collects its result with the
 * semantics every host-process backend shares: timeout → whole tree killed, 124;
 * abort → 137; death by signal n → 128 + n; output capped with a marker, the full
 * output in the log file. Background processes left in its group are killed when it ends.
 */
export async function runProcess(options: RunProcessOptions): Promise<RunProcessResult> {
  const started = performance.now();
  const [file, ...args] = options.argv;
  if (file === undefined) throw new Error('runProcess: argv is empty');
  if (options.signal?.aborted === true) {
    return { ...emptyResult(EXIT_CODE_KILLED), killedBy: 'abort', signal: osConstants.signals.SIGKILL, killedProcessCount: 0 };
  }

  const log = options.logPath === undefined ? undefined : await openLog(options.logPath, options.commandText, options.logCapBytes);
  const stdout = new OutputCapture(options.outputCapBytes, options.onStdout);
  const stderr = new OutputCapture(options.outputCapBytes, options.onStderr);

  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const spawnFailure = new Promise<Error>((resolve) => child.once('error', resolve));
  const spawnedPid = child.pid;
  if (spawnedPid !== undefined) {
    options.onSpawn?.(spawnedPid);
    child.once('exit', () => options.onExit?.(spawnedPid));
  }
  // Listened for at once: 'close' can fire before the code after 'exit' gets to run.
  const closed = once(child, 'close').then(() => undefined, () => undefined);

  child.stdout.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
    // Pausing the pipe while the log catches up keeps a flood from piling up in memory.
    if (log !== undefined && !log.stdout.write(chunk)) {
      child.stdout.pause();
      log.stdout.once('drain', () => child.stdout.resume());
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr.push(chunk);
    if (log !== undefined && !log.stderr.write(chunk)) {
      child.stderr.pause();
      log.stderr.once('drain', () => child.stderr.resume());
    }
  });
  // A command that does not read its stdin closes the pipe: not an error of ours.
  child.stdin.on('error', () => undefined);
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  else child.stdin.end();

  let killedBy: 'timeout' | 'abort' | undefined;
  let killing: Promise<number> | undefined;
  const killTree = (reason: 'timeout' | 'abort'): void => {
    if (killedBy !== undefined || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    killedBy = reason;
    const pid = child.pid;
    killing = killProcessTree(pid, options.processMarker).then(async (processes) => {
      await waitForProcessesGone(processes);
      return processes.length;
    });
  };
  const timer = setTimeout(() => killTree('timeout'), Math.max(0, options.timeoutMs));
  const onAbort = (): void => killTree('abort');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const outcome = await Promise.race([exited, spawnFailure]);
  if (outcome instanceof Error) {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    const notRunnable = shellExitForSpawnError(outcome);
    if (notRunnable === undefined) {
      await log?.close(undefined);
      throw outcome;
    }
    // An argv program that is missing or may not run ends as a shell reports it (127, 126), as on the other backends.
    const message = `${file}: ${notRunnable === 127 ? 'command not found' : 'Permission denied'}\n`;
    const logSummary = await log?.close(`--- exit ${notRunnable} after ${Math.round(performance.now() - started)} ms ---\n`);
    const result: RunProcessResult = { ...emptyResult(notRunnable), stderr: message, durationMs: Math.round(performance.now() - started), killedProcessCount: 0 };
    if (options.logPath !== undefined) result.logPath = options.logPath;
    if (logSummary !== undefined) result.logTruncated = logSummary.isTruncated;
    return result;
  }
  // Whatever is left in the command's group is a background job of it: it ends with the command.
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is already empty.
    }
  }
  // Output is complete when the pipes close; a process that escaped the group (setsid)
  // may hold them open, so the timeout still applies to that wait.
  await waitForClose(child, closed, options.timeoutMs, started);
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  const killedProcessCount = killing === undefined ? 0 : await killing;
  stdout.end();
  stderr.end();

  const durationMs = Math.round(performance.now() - started);
  const ending = interpretExit(killedBy, outcome.code, outcome.signal);
  return finishedResult({ ...ending, stdout, stderr, durationMs, killedProcessCount, log, logPath: options.logPath });
}

/** How a finished host process ended, and what it left: its captured output and its open log. */
export interface FinishedProcess {
  exitCode: number;
  signalNumber?: number | undefined;
  endedBy?: ExecResult['killedBy'] | undefined;
  stdout: OutputCapture;
  stderr: OutputCapture;
  /** The stderr text when the caller already took it (to read the exit code from it). */
  stderrText?: string;
  durationMs: number;
  killedProcessCount: number;
  log: LogFile | undefined;
  logPath: string | undefined;
}

/** The result of a finished host process (run here or by bwrap's launcher): the log closed with its exit line. */
export async function finishedResult(ended: FinishedProcess): Promise<RunProcessResult> {
  const { exitCode, signalNumber, endedBy, stdout, stderr, durationMs, logPath } = ended;
  const logSummary = await ended.log?.close(`--- exit ${exitCode}${endedBy === undefined ? '' : ` (${endedBy})`} after ${durationMs} ms ---\n`);
  const result: RunProcessResult = {
    exitCode,
    stdout: stdout.text(logPath),
    stderr: ended.stderrText ?? stderr.text(logPath),
    timedOut: endedBy === 'timeout',
    truncated: stdout.isTruncated || stderr.isTruncated,
    durationMs,
    killedProcessCount: ended.killedProcessCount,
  };
  if (endedBy !== undefined) result.killedBy = endedBy;
  if (signalNumber !== undefined) result.signal = signalNumber;
  if (logPath !== undefined) result.logPath = logPath;
  if (logSummary !== undefined) result.logTruncated = logSummary.isTruncated;
  return result;
}

/**
 * Exit code and cause from how a process ended: our timeout → 124, our abort → 137,
 * a signal n → 128 + n, and an exit code 129–192 read as a shell's report of a signal.
 */
export function interpretExit(
  killedBy: 'timeout' | 'abort' | undefined,
  code: number | null,
  signal: NodeJS.Signals | null,
): { exitCode: number; signalNumber?: number; endedBy?: ExecResult['killedBy'] } {
  if (killedBy === 'timeout') return { exitCode: EXIT_CODE_TIMEOUT, signalNumber: osConstants.signals.SIGKILL, endedBy: 'timeout' };
  if (killedBy === 'abort') return { exitCode: EXIT_CODE_KILLED, signalNumber: osConstants.signals.SIGKILL, endedBy: 'abort' };
  if (signal !== null) {
    const signalNumber = osConstants.signals[signal];
    return { exitCode: 128 + signalNumber, signalNumber, endedBy: 'signal' };
  }
  const exitCode = code ?? 1;
  // A shell reports a child killed by signal n as 128 + n; keep that reading.
  if (exitCode > 128 && exitCode <= 128 + 64) return { exitCode, signalNumber: exitCode - 128, endedBy: 'signal' };
  return { exitCode };
}

/** 127 for a program that does not exist, 126 for one that may not be executed; undefined for any other spawn failure. */
function shellExitForSpawnError(error: Error): 126 | 127 | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 127;
  if (code === 'EACCES' || code === 'ENOEXEC' || code === 'EISDIR') return 126;
  return undefined;
}

export function emptyResult(exitCode: number): ExecResult {
  return { exitCode, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 0 };
}

async function waitForClose(
  child: ReturnType<typeof spawn>,
  closed: Promise<void>,
  timeoutMs: number,
  started: number,
): Promise<void> {
  const remaining = Math.max(0, timeoutMs - (performance.now() - started));
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'gave-up'>((resolve) => {
    timer = setTimeout(() => resolve('gave-up'), remaining);
  });
  const which = await Promise.race([closed, gaveUp]);
  clearTimeout(timer);
  if (which === 'gave-up') {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}

/** The command log of the host-process backends (the same capped log as the executor's). */
export type LogFile = CommandLog;
export const openLog = openCommandLog;
