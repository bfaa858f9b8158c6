import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { orderAttempts } from './longest-first-order.js';
import { readPastAttemptDurations } from './past-attempt-durations.js';

// runAgentRun's start order from the records of a run before it: run-agent-run.test.ts.
let root: string;
beforeEach(() => {
  root = makeTemporaryDirectory('longest-first');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A run folder as a finished run leaves it: run.json of `kind` and attempts.jsonl of `lines`. */
async function writeRun(name: string, kind: string, createdAt: string, lines: readonly unknown[], options: Record<string, unknown> = {}): Promise<void> {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'run.json'), JSON.stringify({ run_id: name, kind, created_at: createdAt, task_ids: [], options, status: 'completed' }));
  await writeFile(path.join(dir, 'attempts.jsonl'), lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
}

const timed = (taskId: string, seconds: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ task_id: taskId, duration_sec: seconds, result: { failure_reason: null }, ...extra });

describe('readPastAttemptDurations', () => {
  it('takes the median duration of each task over the earlier runs of the kind asked, passing over interrupted and infra tries and lines that are not records', async () => {
    await writeRun('one', 'suite_baseline', '2026-01-01T00:00:00.000Z', [timed('slow', 10), timed('fast', 1), timed('slow', 500, { failure_class: 'infra' })]);
    await writeRun('two', 'suite_baseline', '2026-01-02T00:00:00.000Z', [timed('slow', 12), '{"torn', timed('fast', 2, { result: { failure_reason: 'INTERRUPTED' } }), timed('other', 3)]);
    await writeRun('three', 'suite_baseline', '2026-01-03T00:00:00.000Z', [timed('slow', 14)]);
    await writeRun('agent', 'agent', '2026-01-04T00:00:00.000Z', [timed('fast', 99)]);
    await mkdir(path.join(root, 'not-a-run'));
    const durations = await readPastAttemptDurations(root, 'suite_baseline', ['slow', 'fast', 'unknown']);
    expect(Object.fromEntries(durations)).toEqual({ slow: 12, fast: 1 });
  });

  it('takes each task’s durations from the least contended runs that have it: a sleep is not stretched by -j 4, a CPU-bound task is', async () => {
    await writeRun('j4', 'suite_baseline', '2026-01-01T00:00:00.000Z', [timed('cpu_bound', 13), timed('sleeper', 8), timed('new', 5)], { concurrency: 4 });
    await writeRun('auto', 'suite_baseline', '2026-01-02T00:00:00.000Z', [timed('cpu_bound', 12), timed('sleeper', 7)], { concurrency: 'auto', max_jobs: 3 });
    await writeRun('j1', 'suite_baseline', '2026-01-03T00:00:00.000Z', [timed('cpu_bound', 1.4), timed('sleeper', 6)], { concurrency: 1 });
    await writeRun('j1-again', 'suite_baseline', '2026-01-04T00:00:00.000Z', [timed('cpu_bound', 1.6)], { concurrency: 1 });
    const durations = await readPastAttemptDurations(root, 'suite_baseline', ['cpu_bound', 'sleeper', 'new']);
    expect(Object.fromEntries(durations)).toEqual({ cpu_bound: 1.5, sleeper: 6, new: 5 });
  });

  it('finds nothing in a folder that does not exist', async () => {
    expect((await readPastAttemptDurations(path.join(root, 'missing'), 'agent', ['a'])).size).toBe(0);
  });
});

describe('orderAttempts', () => {
  const taskIdOf = (item: { id: string; timeout: number }): string => item.id;
  const items = [{ id: 'a', timeout: 60 }, { id: 'b', timeout: 60 }, { id: 'c', timeout: 5 }, { id: 'd', timeout: 60 }];

  it('starts the longest first by past durations, places a task with none by its timeout, and keeps the given order on ties', () => {
    const past = new Map([['a', 2], ['b', 2], ['c', 8]]);
    const ordered = orderAttempts(items, 'longest-first', { taskIdOf, past, fallbackSeconds: (item) => item.timeout });
    expect(ordered.map((item) => item.id)).toEqual(['d', 'c', 'a', 'b']);
  });

  it('keeps the given order with as-listed', () => {
    const past = new Map([['c', 8]]);
    expect(orderAttempts(items, 'as-listed', { taskIdOf, past, fallbackSeconds: () => 0 }).map((item) => item.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});
