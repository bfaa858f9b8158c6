import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import type { SuiteEvent } from './suite-types.js';
import { validateSuite } from './validate-suite.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const toyTask = path.resolve(here, '../../../../tasks/custom-dev/toy_fail_pytest/task.yaml');
const toyRepository = path.resolve(here, '../../../../fixtures/repos/toy_repo.git');

let root: string;
beforeEach(() => {
  root = makeTemporaryDirectory('suite-order');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Suite `s` of copies of the toy task, each with its timeout. */
async function writeSuite(timeouts: Record<string, number>): Promise<string> {
  const text = await readFile(toyTask, 'utf8');
  const tasksDir = path.join(root, 'tasks');
  for (const [id, timeout] of Object.entries(timeouts)) {
    await mkdir(path.join(tasksDir, 's', id), { recursive: true });
    const task = text.replace('id: toy_fail_pytest', `id: ${id}`).replace('suite: custom-dev', 'suite: s').replace('url: ../../../fixtures/repos/toy_repo.git', `url: ${toyRepository}`).replace(/timeout_sec: 60\n/, `timeout_sec: ${timeout}\n`);
    await writeFile(path.join(tasksDir, 's', id, 'task.yaml'), task);
  }
  return tasksDir;
}

/** The order the suite would start its tasks in: the run is stopped as it starts, so nothing runs. */
async function startOrder(tasksDir: string, order?: 'as-listed'): Promise<{ toRun: string[]; options: Record<string, unknown> }> {
  const stop = new AbortController();
  let toRun: string[] = [];
  const result = await validateSuite({
    suite: 's',
    tasksDir,
    outDir: path.join(root, 'out'),
    mirrors: [],
    signal: stop.signal,
    ...(order === undefined ? {} : { order }),
    createSandbox: () => Promise.reject(new Error('no sandbox: the run is stopped before any attempt')),
    onEvent: (event: SuiteEvent) => {
      if (event.type !== 'suite-started') return;
      toRun = event.toRun;
      stop.abort();
    },
  });
  return { toRun, options: result.runRecord.options };
}

describe('validateSuite start order', () => {
  it('starts the tasks longest first by the earlier baseline runs under the out folder, a task without one by its timeout, and keeps the suite order when asked', async () => {
    const tasksDir = await writeSuite({ a_quick: 60, b_slow: 60, c_new: 30, d_quick: 60 });
    // An earlier baseline run of the suite, as validate-suite leaves it; and an `ab run` beside it, which does not count.
    const earlier = path.join(root, 'out', 'runs', 'earlier');
    await mkdir(earlier, { recursive: true });
    await writeFile(path.join(earlier, 'run.json'), JSON.stringify({ kind: 'suite_baseline', created_at: '2026-01-01T00:00:00.000Z' }));
    await writeFile(path.join(earlier, 'attempts.jsonl'), ['a_quick 2', 'b_slow 45', 'd_quick 2'].map((line) => JSON.stringify({ task_id: line.split(' ')[0], duration_sec: Number(line.split(' ')[1]), result: { failure_reason: null } })).join('\n') + '\n');
    const agentRun = path.join(root, 'out', 'runs', 'agent');
    await mkdir(agentRun, { recursive: true });
    await writeFile(path.join(agentRun, 'run.json'), JSON.stringify({ kind: 'agent', created_at: '2026-01-02T00:00:00.000Z' }));
    await writeFile(path.join(agentRun, 'attempts.jsonl'), JSON.stringify({ task_id: 'd_quick', duration_sec: 500, result: { failure_reason: null } }) + '\n');

    const longest = await startOrder(tasksDir);
    expect(longest.toRun).toEqual(['b_slow', 'c_new', 'a_quick', 'd_quick']);
    expect(longest.options).toMatchObject({ order: 'longest-first', start_order: ['b_slow', 'c_new', 'a_quick', 'd_quick'] });
    const listed = await startOrder(tasksDir, 'as-listed');
    expect(listed.toRun).toEqual(['a_quick', 'b_slow', 'c_new', 'd_quick']);
    expect(listed.options).toMatchObject({ order: 'as-listed' });
  });
});
