import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { AttemptRecordSchema, loadTask } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFixturePath, sharedFixturesSkipReason } from '../../../../test-support/shared-fixtures.js';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import type { SandboxFactory } from '../plan/sandbox-factory.js';
import { validateBaseline } from './validate-baseline.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const sharedFixtures = sharedFixturePath('agentbench-py-tasks');
const skipOriginalTask = sharedFixturesSkipReason('validate-baseline.test.ts', 'agentbench-py-tasks/custom-dev/toy_fail_pytest/task.yaml');
const bundledTasks = path.resolve(here, '../../../../tasks/custom-dev');

// No engine here: the sandbox cannot be created, and a git failure, found at the same time, must win.
const noSandbox: SandboxFactory = () => Promise.reject(new Error('no engine in this test'));

describe('validateBaseline before the sandbox', () => {
  let runDir: string;
  beforeAll(() => {
    runDir = makeTemporaryDirectory('baseline');
  });
  afterAll(async () => {
    await rm(runDir, { recursive: true, force: true });
  });

  it.skipIf(skipOriginalTask !== undefined)("records the original project's toy task (a broken submodule path) as GIT_CLONE_FAILED with a clear message", async () => {
    const loaded = await loadTask(path.join(sharedFixtures, 'custom-dev', 'toy_fail_pytest', 'task.yaml'));
    const outcome = await validateBaseline(loaded, { runDir, runId: 'run-original', createSandbox: noSandbox, mirrors: [] });
    const missing = path.join(sharedFixtures, 'custom-dev', 'toy_fail_pytest', 'examples', 'toy_repo');
    expect(outcome.failureReason).toBe('GIT_CLONE_FAILED');
    expect(outcome.stage).toBe('git_clone');
    expect(outcome.message).toBe(`cannot clone ${missing}: fatal: repository '${missing}' does not exist`);
    const record = v.parse(AttemptRecordSchema, outcome.record);
    expect(record).toMatchObject({
      run_id: 'run-original',
      task_id: 'toy_fail_pytest',
      suite: 'custom-dev',
      baseline_validation: { attempted: true, failed_as_expected: false, exit_code: null, failure_reason: 'GIT_CLONE_FAILED' },
      result: { passed: false, exit_code: -1, failure_reason: 'GIT_CLONE_FAILED', stop_reason: null },
      variant: 'baseline',
      limits: { timeout_sec: 60 },
    });
    expect(record.artifact_paths['attempt_details']).toBe('logs/toy_fail_pytest/attempt.json');
    const details = JSON.parse(await readFile(path.join(runDir, 'logs', 'toy_fail_pytest', 'attempt.json'), 'utf8')) as { failure_reason: string };
    expect(details.failure_reason).toBe('GIT_CLONE_FAILED');
  });

  it('records an aborted attempt as INTERRUPTED without starting anything', async () => {
    const loaded = await loadTask(path.join(bundledTasks, 'toy_setup_fail', 'task.yaml'));
    const controller = new AbortController();
    controller.abort();
    const outcome = await validateBaseline(loaded, { runDir, createSandbox: noSandbox, mirrors: [], signal: controller.signal });
    expect(outcome.failureReason).toBe('INTERRUPTED');
  });

  it('records a sandbox that cannot be created as SANDBOX_ERROR, keeping the stack in error.txt', async () => {
    const workRoot = makeTemporaryDirectory('baseline-sandbox');
    const repository = path.resolve(here, '../../../../fixtures/repos/toy_repo.git');
    const loaded = await loadTask(path.join(bundledTasks, 'toy_fail_pytest', 'task.yaml'));
    expect(loaded.repoUrl).toBe(repository);
    const failing: SandboxFactory = () => Promise.reject(Object.assign(new Error('engine gone'), { [Symbol.for('agentbench.sandbox-error')]: true }));
    const outcome = await validateBaseline(loaded, { runDir: workRoot, createSandbox: failing, mirrors: [] });
    expect(outcome.failureReason).toBe('SANDBOX_ERROR');
    expect(outcome.stage).toBe('setup');
    expect(outcome.commitSha).toBe('ff52777d9582e6aaeaf62139588920dc4c36e414');
    expect(await readFile(path.join(workRoot, 'logs', 'toy_fail_pytest', 'error.txt'), 'utf8')).toMatch(/^Error: engine gone\n\s+at /);
    await rm(workRoot, { recursive: true, force: true });
  });
});
