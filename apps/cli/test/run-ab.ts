import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { skipUnlessRequired } from '../../../test-support/skip-unless-required.js';

/** The built `ab` (a child process runs what users run, and can be killed with -9). */
export const abBin = path.join(repositoryRoot, 'apps/cli/dist/bin.js');

/** Why the built `ab` cannot be spawned here (printed), or undefined; a failure under AGENTBENCH_REQUIRE_TOOLS=1 (CI builds it). */
export function abBinSkipReason(fileName: string): string | undefined {
  return skipUnlessRequired(fileName, existsSync(abBin) ? undefined : 'apps/cli/dist/bin.js is not built (pnpm --filter @agentbench/cli build)', 'AGENTBENCH_REQUIRE_TOOLS');
}

export interface AbExit {
  /** null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface AbProcess {
  pid: number;
  /** Settles when it exits, with all it printed. */
  exit: Promise<AbExit>;
  /** SIGKILL: no handler of `ab` runs. */
  kill(): void;
}

export interface AbOptions {
  /** Default: the repository root. */
  cwd?: string;
  /** Added to this process's environment. */
  env?: Readonly<Record<string, string>>;
}

/** Starts the built `ab` with these arguments, collecting what it prints. */
export function startAb(args: readonly string[], options: AbOptions = {}): AbProcess {
  const child = spawn(process.execPath, [abBin, ...args], { cwd: options.cwd ?? repositoryRoot, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<AbExit>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, signal) => resolve({ exitCode, signal, stdout, stderr }));
  });
  if (child.pid === undefined) {
    exit.catch(() => undefined);
    throw new Error(`could not start ${process.execPath} ${abBin}`);
  }
  return { pid: child.pid, exit, kill: () => child.kill('SIGKILL') };
}

/** Runs the built `ab` to its end. */
export function runAb(args: readonly string[], options: AbOptions = {}): Promise<AbExit> {
  return startAb(args, options).exit;
}
