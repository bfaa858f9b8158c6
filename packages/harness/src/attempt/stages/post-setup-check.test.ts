import { existsSync } from 'node:fs';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSandbox, type Sandbox } from '@agentbench/sandbox';
import { loadTask, type LoadedTask } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepository, makeTemporaryDirectory } from '../../../test/helpers/git-repository.js';
import { snapshotGitDirectory, suiteAttemptPaths } from '../../artifacts/attempt-paths.js';
import type { SandboxFactory } from '../../plan/sandbox-factory.js';
import { validateBaseline } from '../validate-baseline.js';

// The local backend (no engine): what is checked is the order of setup, the network cut and the
// post-setup snapshot, which the pipeline overlaps, and what each way of ending leaves on disk.
const localSandbox: SandboxFactory = (spec) => createSandbox('local', spec, { backendOptions: { isWarningSilenced: true } });

/** The local sandbox, whose network cut fails as an engine that stops answering would make it fail. */
const failingCut: SandboxFactory = async (spec) => {
  const sandbox = await localSandbox(spec);
  return new Proxy(sandbox, {
    get(target, property) {
      if (property === 'setNetwork') return () => Promise.reject(new Error('the engine did not answer'));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...parameters: unknown[]) => unknown).bind(target) : value;
    },
  }) as Sandbox;
};

describe('the post-setup check, taken while the network is cut', () => {
  let root: string;
  let repository: string;
  let commit: string;
  let taskCount = 0;

  beforeAll(() => {
    root = makeTemporaryDirectory('post-setup');
    repository = path.join(root, 'repository');
    [commit] = createGitRepository(repository, [{ message: 'a failing test', files: { 'test.sh': 'exit 1\n', '.gitignore': 'ignored/\n' } }]) as [string];
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  async function taskWithSetup(setup: readonly string[]): Promise<LoadedTask> {
    taskCount += 1;
    const folder = path.join(root, 'tasks', `setup_${taskCount}`);
    mkdirSync(folder, { recursive: true });
    const commands = setup.map((command) => `    - ${JSON.stringify(command)}\n`).join('');
    writeFileSync(
      path.join(folder, 'task.yaml'),
      `task_spec_version: "1.0"\nid: setup_${taskCount}\nsuite: local\nrepo:\n  url: ${repository}\n  commit: ${commit}\nenvironment:\n  docker_image: agentbench/py-runner:0.1.0\n  workdir: /workspace\n  timeout_sec: 30\nsetup:\n  commands:${setup.length === 0 ? ' []' : '\n'}${commands}run:\n  command: sh test.sh\nvalidation:\n  expected_exit_codes: [1]\n`,
    );
    return loadTask(path.join(folder, 'task.yaml'));
  }

  it('sees what setup wrote, and only what it did not ignore', async () => {
    const loaded = await taskWithSetup(['mkdir -p ignored && echo built > ignored/out.txt', 'echo stray > new.txt']);
    const runDir = path.join(root, 'dirty');
    const outcome = await validateBaseline(loaded, { runDir, createSandbox: localSandbox, mirrors: [], flakyRerun: 'never' });
    expect(outcome.failureReason).toBe('SETUP_DIRTY_WORKTREE');
    expect(outcome.record.failure_stage).toBe('post_setup_check');
    expect(outcome.message).toContain('A new.txt');
    expect(outcome.message).not.toContain('ignored/out.txt');
    expect(outcome.record.artifact_paths['post_setup_status']).toBe(`logs/${loaded.task.id}/post_setup_status.txt`);
  });

  it('judges a clean setup as before: the baseline fails as expected', async () => {
    const loaded = await taskWithSetup(['mkdir -p ignored && echo built > ignored/out.txt']);
    const runDir = path.join(root, 'clean');
    const outcome = await validateBaseline(loaded, { runDir, createSandbox: localSandbox, mirrors: [], flakyRerun: 'never' });
    expect(outcome.failureReason).toBeNull();
    expect(outcome.stages.map((stage) => stage.stage)).toEqual(['git_clone', 'git_checkout', 'setup', 'post_setup_check', 'baseline_run']);
    expect(existsSync(snapshotGitDirectory(suiteAttemptPaths(runDir, loaded.task.id).workspaceDir))).toBe(false);
  });

  it('leaves no snapshot folder when setup fails (the folder is made while setup runs)', async () => {
    const loaded = await taskWithSetup(['exit 3']);
    const runDir = path.join(root, 'setup-fails');
    const outcome = await validateBaseline(loaded, { runDir, createSandbox: localSandbox, mirrors: [] });
    expect(outcome.failureReason).toBe('SETUP_FAILED');
    expect(outcome.record.failure_stage).toBe('setup');
    expect(existsSync(snapshotGitDirectory(suiteAttemptPaths(runDir, loaded.task.id).workspaceDir))).toBe(false);
  });

  it('reports a failed network cut as the setup stage’s, with no post-setup files, though the snapshot ran beside it', async () => {
    const loaded = await taskWithSetup(['true']);
    const runDir = path.join(root, 'cut-fails');
    const outcome = await validateBaseline(loaded, { runDir, createSandbox: failingCut, mirrors: [] });
    expect(outcome.failureReason).not.toBeNull();
    expect(outcome.record.failure_stage).toBe('setup');
    expect(outcome.message).toContain('the engine did not answer');
    expect(outcome.record.artifact_paths['post_setup_status']).toBeUndefined();
    expect(outcome.stages.map((stage) => stage.stage)).not.toContain('post_setup_check');
    expect(existsSync(path.join(runDir, 'logs', loaded.task.id, 'post_setup_status.txt'))).toBe(false);
    expect(existsSync(snapshotGitDirectory(suiteAttemptPaths(runDir, loaded.task.id).workspaceDir))).toBe(false);
  });
});
