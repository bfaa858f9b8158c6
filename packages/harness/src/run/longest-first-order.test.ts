import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTask, type LoadedTask } from '@agentbench/schemas';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeAttemptRecord } from '../../test/helpers/fake-attempt-record.js';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { orderAttempts } from './longest-first-order.js';
import { readPastAttemptDurations } from './past-attempt-durations.js';
import { runAgentRun } from './run-agent-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const toyTask = path.resolve(here, '../../../../tasks/custom-dev/toy_fail_pytest/task.yaml');

let root: string;
let tasks: LoadedTask[];
beforeAll(async () => {
  const loaded = await loadTask(toyTask);
  tasks = ['task_a', 'task_b', 'task_c'].map((id) => ({ ...loaded, task: { ...loaded.task, id } }));
});
beforeEach(() => {
  root = makeTemporaryDirectory('longest-first');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A run folder as a finished run leaves it: run.json of `kind` and attempts.jsonl of `lines`. */
async function writeRun(name: string, kind: string, createdAt: string, lines: readonly unknown[]): Promise<void> {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'run.json'), JSON.stringify({ run_id: name, kind, created_at: createdAt, task_ids: [], options: {}, status: 'completed' }));
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

describe('runAgentRun start order', () => {
  // A first run records how long each task took; a second run beside it starts them longest first.
  const seconds: Record<string, number> = { task_a: 1, task_b: 9, task_c: 4 };
  async function startOrderOf(outDir: string, order?: 'as-listed'): Promise<{ started: string[]; runJson: { options: Record<string, unknown> } }> {
    const started: string[] = [];
    await runAgentRun({
      tasks,
      concurrency: 1,
      outDir,
      ...(order === undefined ? {} : { order }),
      runAttempt: async (input) => {
        started.push(input.attempt.task.task.id);
        return { ...fakeAttemptRecord(input), duration_sec: seconds[input.attempt.task.task.id] as number };
      },
    });
    return { started, runJson: JSON.parse(await readFile(path.join(outDir, 'run.json'), 'utf8')) as { options: Record<string, unknown> } };
  }

  it('starts the tasks longest first by the earlier runs beside it, says so in run.json, and keeps the tasks\' order when asked', async () => {
    const first = await startOrderOf(path.join(root, 'first'));
    // Every task has the same timeout and no run is beside the first: the tasks' order.
    expect(first.started).toEqual(['task_a', 'task_b', 'task_c']);
    const second = await startOrderOf(path.join(root, 'second'));
    expect(second.started).toEqual(['task_b', 'task_c', 'task_a']);
    expect(second.runJson.options).toMatchObject({ order: 'longest-first', start_order: ['task_b', 'task_c', 'task_a'] });
    const listed = await startOrderOf(path.join(root, 'listed'), 'as-listed');
    expect(listed.started).toEqual(['task_a', 'task_b', 'task_c']);
    expect(listed.runJson.options).toMatchObject({ order: 'as-listed' });
  });
});
