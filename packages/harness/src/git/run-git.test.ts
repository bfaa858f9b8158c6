import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitCommandFailure, gitEnvironment, runGit } from './run-git.js';

const saved = { ...process.env };
afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});

describe('runGit', () => {
  it('runs when the user has EDITOR and PAGER set', async () => {
    process.env['EDITOR'] = 'vim';
    process.env['PAGER'] = 'less';
    const folder = await mkdtemp(path.join(tmpdir(), 'ab-run-git-'));
    try {
      const output = await runGit(['init', '--initial-branch=main', folder], { cwd: folder });
      expect(output).toMatch(/Initialized empty Git repository/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("fails a non-zero exit, silent or not, with git's message", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'ab-run-git-'));
    try {
      await runGit(['init', '--initial-branch=main', folder], { cwd: folder });
      await expect(runGit(['rev-parse', '--quiet', '--verify', 'no-such-ref'], { cwd: folder })).rejects.toThrow('git exited with code 1');
      await expect(runGit(['checkout', 'no-such-branch'], { cwd: folder })).rejects.toThrow(/pathspec 'no-such-branch' did not match/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('stops a command silent for longer than silenceTimeoutMs, and one aborted, without waiting for its helpers', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'ab-run-git-'));
    // The alias's shell (a helper git starts) notes its pid and sleeps far past the test's timeout: runGit can
    // only settle by stopping git, and the helpers still alive afterwards show it did not wait for them.
    const helpers = path.join(folder, 'helpers');
    const silent = ['-c', `alias.wait=!echo $$ >> ${helpers}; exec sleep 600`, 'wait'];
    const helperPids = async (): Promise<number[]> => (await readFile(helpers, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '').map(Number);
    try {
      const timedOut = await runGit(silent, { cwd: folder, silenceTimeoutMs: 300 }).catch((error: unknown) => error);
      expect(timedOut).toBeInstanceOf(GitCommandFailure);
      expect((timedOut as GitCommandFailure).message).toBe('git printed nothing for 300 ms and was stopped');
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const aborted = await runGit(silent, { cwd: folder, signal: controller.signal }).catch((error: unknown) => error);
      expect(aborted).toMatchObject({ isAborted: true, message: 'aborted' });
      const pids = await helperPids();
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(() => process.kill(pid, 0)).not.toThrow();
    } finally {
      for (const pid of await helperPids()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses --git-dir unless the caller allows it', async () => {
    await expect(runGit(['--git-dir=/tmp/elsewhere', 'status'], { cwd: tmpdir() })).rejects.toThrow(/allowGitDirectory/);
  });

  it('passes neither GIT_* variables nor editors to git', () => {
    process.env['GIT_DIR'] = '/elsewhere';
    process.env['EDITOR'] = 'vim';
    const environment = gitEnvironment();
    expect(environment['GIT_DIR']).toBeUndefined();
    expect(environment['EDITOR']).toBeUndefined();
    expect(environment['GIT_TERMINAL_PROMPT']).toBe('0');
  });
});
