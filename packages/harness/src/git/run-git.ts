import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';

export interface RunGitOptions {
  /** Folder git runs in; must exist. */
  cwd: string;
  signal?: AbortSignal;
  /** File every command and its outcome is appended to. */
  logFile?: string;
  /** Milliseconds without any output before git is killed. Default 10 minutes (a big fetch). */
  silenceTimeoutMs?: number;
  /** Lets the arguments carry `--git-dir`; only for paths we chose (refused otherwise, so a path from input cannot name one). */
  allowGitDirectory?: boolean;
}

/** A git command that ran and failed: git's message, and whether it was our abort that stopped it. */
export class GitCommandFailure extends Error {
  override readonly name = 'GitCommandFailure';
  readonly isAborted: boolean;
  constructor(message: string, isAborted: boolean, cause: unknown) {
    super(message, { cause });
    this.isAborted = isAborted;
  }
}

// Inherited GIT_* variables (GIT_DIR from a hook, GIT_INDEX_FILE...) would point git at another repository.
// Editors, pagers and askpass helpers are never needed here: nothing runs interactively.
const unwantedVariables = new Set(['EDITOR', 'VISUAL', 'PAGER', 'SSH_ASKPASS']);

export function gitEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('GIT_') && !unwantedVariables.has(key)) environment[key] = value;
  }
  // Never wait for a password on a terminal nobody watches.
  environment['GIT_TERMINAL_PROMPT'] = '0';
  return environment;
}

/**
 * Runs `git <args>` (plain `spawn`, no shell) and returns its stdout; throws GitCommandFailure carrying
 * git's stderr, for any non-zero exit, for a command silent longer than `silenceTimeoutMs`, and for an
 * abort. For host-owned repositories (the task's source and our clones); commands over sandbox-written
 * trees use `runIsolatedGit`.
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<string> {
  const silenceTimeoutMs = options.silenceTimeoutMs ?? 600_000;
  const started = performance.now();
  let stderr = '';
  let failure: string | undefined;
  try {
    if (options.allowGitDirectory !== true && args.some((argument) => argument.startsWith('--git-dir'))) {
      throw new Error(`git ${args.join(' ')}: --git-dir is only passed for paths the harness chose (allowGitDirectory)`);
    }
    const child = spawn('git', [...args], { cwd: options.cwd, env: gitEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let silence: NodeJS.Timeout | undefined;
    const stop = (reason: string): void => {
      failure ??= reason;
      child.kill('SIGKILL');
    };
    const restartSilence = (): void => {
      clearTimeout(silence);
      silence = setTimeout(() => stop(`git printed nothing for ${silenceTimeoutMs} ms and was stopped`), silenceTimeoutMs);
    };
    const onAbort = (): void => stop('aborted');
    if (options.signal?.aborted === true) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    restartSilence();
    child.stdout.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      restartSilence();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 65_536) stderr += chunk.toString('utf8');
      restartSilence();
    });
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
      child.on('exit', () => {
        // A helper git started (ssh, an alias's shell) may keep the pipes open after we stopped git.
        if (failure === undefined) return;
        child.stdout.destroy();
        child.stderr.destroy();
      });
    }).finally(() => {
      clearTimeout(silence);
      options.signal?.removeEventListener('abort', onAbort);
    });
    if (failure === undefined && exitCode !== 0) failure = stderr.trim() === '' ? `git exited with code ${String(exitCode)}` : stderr.trim();
    if (failure !== undefined) throw new Error(failure);
    const output = Buffer.concat(stdout).toString('utf8');
    await log(options.logFile, `$ git ${args.join(' ')}  # ${Math.round(performance.now() - started)} ms\n${indent(output)}`);
    return output;
  } catch (error) {
    const isAborted = options.signal?.aborted === true;
    const message = isAborted ? 'aborted' : error instanceof Error ? error.message : String(error);
    await log(options.logFile, `$ git ${args.join(' ')}  # failed after ${Math.round(performance.now() - started)} ms\n${indent(message)}`);
    throw new GitCommandFailure(message.trim(), isAborted, error);
  }
}

function indent(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed === '' ? '' : `${trimmed.replace(/^/gm, '  ')}\n`;
}

async function log(file: string | undefined, text: string): Promise<void> {
  if (file === undefined) return;
  await appendFile(file, text).catch(() => undefined);
}
