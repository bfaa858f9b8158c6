import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { HarnessError } from '../errors/harness-error.js';

/**
 * Git run on the host over a work tree a sandbox wrote. The work tree is attacker-written:
 * its `.git` (config with `core.fsmonitor`, hooks, `include.path`, filter and diff drivers)
 * is never read, because the git directory is one the harness made outside every mount.
 * Configuration comes from that directory and the overrides below only: no system or global
 * file, no hooks, no fsmonitor, no pager, no external diff or textconv, no network.
 */
const PROTECTIVE_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.attributesFile=/dev/null',
  'core.excludesFile=/dev/null',
  'core.pager=cat',
  'core.sshCommand=false',
  'core.quotePath=false',
  'protocol.allow=never',
  'gc.auto=0',
  'maintenance.auto=false',
];

/** Bytes of output kept from one command; a diff past it is refused rather than cut silently. */
export const DEFAULT_ISOLATED_GIT_OUTPUT_BYTES = 64 * 1024 * 1024;

export interface IsolatedGitOptions {
  /** The harness's own git directory (never inside a sandbox mount). */
  gitDir: string;
  /** The sandbox-written work tree, for commands that read it. */
  workTree?: string;
  /** Index file of this command (snapshots use their own, never the work tree's). */
  indexFile?: string;
  signal?: AbortSignal;
  /** File each command and its outcome is appended to. */
  logFile?: string;
  maxOutputBytes?: number;
}

/** A git command over a sandbox-written work tree failed. */
export class IsolatedGitError extends HarnessError {
  override readonly name = 'IsolatedGitError';
}

/** Only what git needs: PATH, a C locale, and the variables that shut every outside configuration off. */
function isolatedEnvironment(options: IsolatedGitOptions): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: options.gitDir,
    LC_ALL: 'C',
    GIT_DIR: options.gitDir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
  };
  if (options.workTree !== undefined) environment['GIT_WORK_TREE'] = options.workTree;
  if (options.indexFile !== undefined) environment['GIT_INDEX_FILE'] = options.indexFile;
  return environment;
}

/** Runs `git <args>` isolated as above and returns its stdout; throws IsolatedGitError with git's stderr. */
export async function runIsolatedGit(args: readonly string[], options: IsolatedGitOptions): Promise<Buffer> {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_ISOLATED_GIT_OUTPUT_BYTES;
  const configArguments = PROTECTIVE_CONFIG.flatMap((setting) => ['-c', setting]);
  const started = performance.now();
  const child = spawn('git', [...configArguments, ...args], {
    cwd: options.gitDir,
    env: isolatedEnvironment(options),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderr = '';
  let isOverLimit = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (stdoutBytes > maxOutputBytes) {
      isOverLimit = true;
      child.kill('SIGKILL');
      return;
    }
    stdout.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 16_384) stderr += chunk.toString('utf8');
  });
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  }).catch((error: unknown) => {
    throw new IsolatedGitError(`git ${args[0] ?? ''}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  });
  const elapsed = Math.round(performance.now() - started);
  const summary = `$ git ${args.join(' ')}  # ${isOverLimit ? 'stopped: output over the limit' : `exit ${String(exitCode)}`}, ${elapsed} ms\n`;
  if (options.logFile !== undefined) await appendFile(options.logFile, `${summary}${indent(stderr)}`).catch(() => undefined);
  if (isOverLimit) throw new IsolatedGitError(`git ${args[0] ?? ''} printed more than ${maxOutputBytes} bytes`);
  if (exitCode !== 0) throw new IsolatedGitError(`git ${args[0] ?? ''} exited with ${String(exitCode)}: ${stderr.trim() || 'no message'}`);
  return Buffer.concat(stdout);
}

function indent(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed === '' ? '' : `${trimmed.replace(/^/gm, '  ')}\n`;
}
