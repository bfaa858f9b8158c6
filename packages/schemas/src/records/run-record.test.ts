import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { RUN_KINDS, RunRecordSchema } from './run-record.js';

const running = {
  run_id: '2025-01-01T00-00-00__01J',
  kind: 'suite_baseline',
  created_at: '2025-01-01T00:00:00.000Z',
  harness_version: '0.1.0',
  suite: 'custom-dev',
  task_ids: ['a', 'b'],
  options: { concurrency: 2 },
  status: 'running',
};

describe('RunRecordSchema', () => {
  it.each(RUN_KINDS)('accepts kind %s', (kind) => {
    expect(v.safeParse(RunRecordSchema, { ...running, kind }).success).toBe(true);
  });

  it('accepts a finished run and fills optional counts', () => {
    const finished = { ...running, status: 'completed', finished_at: '2025-01-01T00:10:00.000Z', counts: { total: 2, passed: 1, failed: 1 } };
    expect(v.parse(RunRecordSchema, finished).counts).toEqual({ total: 2, passed: 1, failed: 1, errored: 0, skipped: 0 });
  });

  it('rejects unknown kinds and statuses and bad counts', () => {
    const result = v.safeParse(RunRecordSchema, { ...running, kind: 'bench', status: 'done', counts: { total: -1, passed: 0, failed: 0 } });
    expect(result.issues?.map((issue) => v.getDotPath(issue))).toEqual(['kind', 'status', 'counts.total']);
  });
});

describe('RunRecordSchema plan', () => {
  const plan = { version: 1, tasks: [{ id: 'toy', file: 'tasks/toy/task.yaml' }], models: ['m'], runs: 2, variant: 'scripted', max_steps: null, retries: 2, skip_baseline: true, harness_version: '0.1.0' };
  const run = { run_id: 'r', kind: 'agent', created_at: '2026-01-01T00:00:00Z', harness_version: '0.1.0', task_ids: ['toy'], options: {}, status: 'running' };

  it('reads an ab run plan, and run.json files without one', () => {
    expect(v.parse(RunRecordSchema, { ...run, plan }).plan).toEqual(plan);
    expect(v.parse(RunRecordSchema, run).plan).toBeUndefined();
  });

  it('rejects a plan with zero runs, naming the field', () => {
    const result = v.safeParse(RunRecordSchema, { ...run, plan: { ...plan, runs: 0 } });
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => v.getDotPath(issue))).toEqual(['plan.runs']);
  });
});
