import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { AttemptRecordSchema, RunRecordSchema } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepositories, repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { RepoCache, validateSuite, type ValidateSuiteResult } from '../src/index.js';
import { containersLeftBy, dockerSkipReason } from './helpers/docker-context.js';
import { makeTemporaryDirectory } from './helpers/git-repository.js';
const skipReason = dockerSkipReason('custom-dev-suite.docker.test.ts');

describe.skipIf(skipReason !== undefined)('the bundled custom-dev suite in real Docker', () => {
  let outDir: string;
  let result: ValidateSuiteResult;
  const events: string[] = [];

  beforeAll(async () => {
    buildFixtureRepositories();
    outDir = makeTemporaryDirectory('custom-dev');
    result = await validateSuite({
      suite: 'custom-dev',
      tasksDir: path.join(repositoryRoot, 'tasks'),
      outDir,
      concurrency: 3,
      mirrors: [],
      cache: new RepoCache({ directory: path.join(outDir, 'cache') }),
      onEvent: (event) => events.push(event.type === 'task-finished' ? `finished ${event.taskId}` : event.type),
    });
  }, 300_000);

  afterAll(async () => {
    const left = result === undefined ? [] : await containersLeftBy(result.runId);
    await rm(outDir, { recursive: true, force: true });
    expect(left, 'containers left behind').toEqual([]);
  });

  it('gives each task its expected baseline outcome', () => {
    const outcomes = Object.fromEntries(result.tasks.map((task) => [task.taskId, [task.status, task.record?.result.failure_reason ?? null]]));
    expect(outcomes).toEqual({
      toy_fail_pytest: ['valid', null],
      toy_one_liner: ['valid', null],
      toy_pass_pytest: ['invalid', 'BASELINE_NOT_FAILING'],
      toy_setup_fail: ['invalid', 'SETUP_FAILED'],
      toy_timeout: ['invalid', 'TIMEOUT'],
    });
    expect(result.isInterrupted).toBe(false);
  });

  it('writes run.json with the run, its status and its counts', async () => {
    const runJson: unknown = JSON.parse(await readFile(path.join(result.runDir, 'run.json'), 'utf8'));
    const run = v.parse(RunRecordSchema, runJson);
    expect(path.basename(result.runDir)).toMatch(/^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}__custom-dev__baseline$/);
    expect(path.dirname(result.runDir)).toBe(path.join(outDir, 'runs'));
    expect(run).toMatchObject({
      run_id: result.runId,
      kind: 'suite_baseline',
      suite: 'custom-dev',
      status: 'completed',
      task_ids: ['toy_fail_pytest', 'toy_one_liner', 'toy_pass_pytest', 'toy_setup_fail', 'toy_timeout'],
      counts: { total: 5, passed: 2, failed: 3, errored: 0, skipped: 0 },
    });
    expect(Date.parse(run.finished_at ?? '')).toBeGreaterThanOrEqual(Date.parse(run.created_at));
    expect(existsSync(path.join(result.runDir, 'run.lock'))).toBe(false);
  });

  it('appends one valid AttemptRecord per task to attempts.jsonl, with artifact paths that exist', async () => {
    const lines = (await readFile(path.join(result.runDir, 'attempts.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(5);
    const records = lines.map((line) => v.parse(AttemptRecordSchema, JSON.parse(line)));
    expect(records.map((record) => record.task_id).sort()).toEqual(['toy_fail_pytest', 'toy_one_liner', 'toy_pass_pytest', 'toy_setup_fail', 'toy_timeout']);
    for (const record of records) {
      expect(record).toMatchObject({ run_id: result.runId, suite: 'custom-dev', variant: 'baseline', labels: ['toy'], limits: { timeout_sec: record.task_id === 'toy_timeout' ? 5 : 60 } });
      expect(record.baseline_validation.attempted).toBe(true);
      expect(record.baseline_validation.failed_as_expected).toBe(record.result.failure_reason === null);
      for (const [name, relative] of Object.entries(record.artifact_paths)) {
        if (name === 'workspace') continue;
        expect(existsSync(path.join(result.runDir, relative)), `${record.task_id}: ${name} → ${relative}`).toBe(true);
      }
    }
    const byTask = new Map(records.map((record) => [record.task_id, record]));
    expect(byTask.get('toy_fail_pytest')?.baseline_validation.exit_code).toBe(1);
    expect(byTask.get('toy_pass_pytest')?.baseline_validation.exit_code).toBe(0);
    expect(byTask.get('toy_timeout')?.result.exit_code).toBe(124);
    expect(byTask.get('toy_setup_fail')?.baseline_validation.exit_code).toBeNull();
  });

  it('keeps the logs of every command under logs/<task_id>/', async () => {
    const logs = path.join(result.runDir, 'logs');
    const failRun = await readFile(path.join(logs, 'toy_fail_pytest', 'run.log'), 'utf8');
    expect(failRun).toMatch(/^\$ PYTHONPATH=\/workspace\/site-packages python3 -m pytest -q\n/);
    expect(failRun).toContain('FAILED tests/test_stats.py::test_median_of_unsorted_values');
    // The fast baseline was run twice to rule out flakiness.
    expect(existsSync(path.join(logs, 'toy_fail_pytest', 'run_rerun.log'))).toBe(true);
    const setup = await readFile(path.join(logs, 'toy_fail_pytest', 'setup_1.log'), 'utf8');
    expect(setup.split('\n')[0]).toBe('$ pip install --no-index --no-build-isolation --upgrade . --target=/workspace/site-packages --force-reinstall');
    const failedSetup = await readFile(path.join(logs, 'toy_setup_fail', 'setup_1.log'), 'utf8');
    expect(failedSetup).toContain('nonexistent-package-xyz-12345');
    expect(existsSync(path.join(logs, 'toy_setup_fail', 'run.log'))).toBe(false);
    const details = JSON.parse(await readFile(path.join(logs, 'toy_timeout', 'attempt.json'), 'utf8')) as { stage: string; message: string };
    expect(details).toMatchObject({ stage: 'baseline_run', message: 'the test command timed out after 5 s' });
    expect(await readFile(path.join(logs, 'toy_fail_pytest', 'post_setup_status.txt'), 'utf8')).toBe('');
  });

  it('keeps the workspaces of invalid tasks only', () => {
    const workspace = (taskId: string): boolean => existsSync(path.join(result.runDir, 'workspace', taskId, 'repo'));
    expect(workspace('toy_fail_pytest')).toBe(false);
    expect(workspace('toy_pass_pytest')).toBe(true);
    expect(existsSync(path.join(result.runDir, 'workspace', 'toy_pass_pytest', 'site-packages', 'toy_calc'))).toBe(true);
  });

  it('reports progress: started, one event per finished task, finished', () => {
    expect(events[0]).toBe('suite-started');
    expect(events.filter((event) => event.startsWith('finished '))).toHaveLength(5);
    expect(events[events.length - 1]).toBe('suite-finished');
  });
});
