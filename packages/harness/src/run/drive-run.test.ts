import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HARNESS_VERSION, type AttemptRecord, type RunRecord } from '@agentbench/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { driveRun, type RunDriverPlan } from './drive-run.js';
import type { RunSandboxPool } from './run-sandbox-pool.js';

let root: string;
beforeEach(() => {
  root = makeTemporaryDirectory('drive-run');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const runRecord: RunRecord = {
  run_id: 'run-1',
  kind: 'suite_baseline',
  created_at: '2026-01-01T00:00:00.000Z',
  finished_at: null,
  harness_version: HARNESS_VERSION,
  suite: 'toy',
  task_ids: ['a', 'b'],
  options: {},
  status: 'running',
  counts: null,
};

function recordOf(taskId: string): AttemptRecord {
  const now = new Date().toISOString();
  return {
    schema_version: '0.1.0',
    run_id: 'run-1',
    task_id: taskId,
    suite: 'toy',
    timestamp_start: now,
    timestamp_end: now,
    duration_sec: 0,
    baseline_validation: { attempted: false, failed_as_expected: false, exit_code: null, failure_reason: null },
    result: { passed: true, exit_code: 0, failure_reason: null, stop_reason: null },
    artifact_paths: {},
    variant: 'fake',
    model: null,
    limits: { timeout_sec: 60 },
    metrics: null,
  };
}

/** A plan of two tasks whose attempt appends a record; `fail` makes task b throw (a failure of ours). */
function plan(runDir: string, overrides: Partial<RunDriverPlan<string>> = {}): RunDriverPlan<string> {
  return {
    folder: { kind: 'new', runDir },
    runRecord,
    items: ['a', 'b'],
    shouldRun: () => true,
    schedule: { concurrency: 1 },
    runItem: async (taskId, run) => run.append(recordOf(taskId)),
    end: (outcomes) => {
      const failure = outcomes.find((outcome) => outcome.status === 'rejected');
      return { status: failure === undefined ? 'completed' : 'failed', counts: { total: 2, passed: 2, failed: 0, errored: 0, skipped: 0 }, ...(failure?.status === 'rejected' ? { failure: failure.error } : {}) };
    },
    ...overrides,
  };
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
}

describe('driveRun', () => {
  it('writes run.json running, then finished, appends each record, and leaves no lock', async () => {
    const runDir = path.join(root, 'run');
    const seen: unknown[] = [];
    const driven = await driveRun(plan(runDir, { onStarted: async () => void seen.push((await readJson(path.join(runDir, 'run.json')))['status']) }));
    expect(seen).toEqual(['running']);
    const finished = await readJson(path.join(runDir, 'run.json'));
    expect(finished).toMatchObject({ run_id: 'run-1', status: 'completed', counts: { total: 2, passed: 2 } });
    expect(finished['finished_at']).toEqual(expect.any(String));
    expect(driven.runRecord.status).toBe('completed');
    const lines = (await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as AttemptRecord).task_id)).toEqual(['a', 'b']);
    expect(existsSync(path.join(runDir, 'run.lock'))).toBe(false);
  });

  it('on a resume hands the plan the records already there (a torn last line dropped) before run.json says running', async () => {
    const runDir = path.join(root, 'run');
    await driveRun(plan(runDir, { items: ['a'] }));
    await writeFile(path.join(runDir, 'attempts.jsonl'), `${JSON.stringify(recordOf('a'))}\n{"task_id":"b"`, { flag: 'w' });
    let given: string[] = [];
    let statusThen: unknown;
    await driveRun(
      plan(runDir, {
        folder: { kind: 'resume', runDir },
        resume: async (records) => {
          given = records.map((record) => record.task_id);
          statusThen = (await readJson(path.join(runDir, 'run.json')))['status'];
        },
        shouldRun: (taskId) => !given.includes(taskId),
      }),
    );
    expect(given).toEqual(['a']);
    expect(statusThen).toBe('completed');
    const lines = (await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as AttemptRecord).task_id)).toEqual(['a', 'b']);
  });

  it('on a failure of ours writes run.json failed with the failure, throws it, and still disposes the pool, cleans up and unlocks', async () => {
    const runDir = path.join(root, 'run');
    const order: string[] = [];
    const pool = { createSandbox: async () => { throw new Error('unused'); }, stats: () => ({}), dispose: async () => void order.push('pool') } as unknown as RunSandboxPool;
    const failing = plan(runDir, {
      startPool: async () => pool,
      runItem: async (taskId) => {
        if (taskId === 'b') throw new Error('disk on fire');
      },
      cleanup: async () => void order.push(`cleanup, locked: ${existsSync(path.join(runDir, 'run.lock'))}`),
    });
    await expect(driveRun(failing)).rejects.toThrow('disk on fire');
    expect(await readJson(path.join(runDir, 'run.json'))).toMatchObject({ status: 'failed', failure: 'disk on fire' });
    expect(order).toEqual(['pool', 'cleanup, locked: true']);
    expect(existsSync(path.join(runDir, 'run.lock'))).toBe(false);
  });
});
