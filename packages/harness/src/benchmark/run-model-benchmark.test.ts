import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTask, type LoadedTask } from '@agentbench/schemas';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeAttemptRecord } from '../../test/helpers/fake-attempt-record.js';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import type { AttemptTryInput } from '../run/run-agent-run.js';
import { providerOf } from '../plan/model-list.js';
import { runModelBenchmark, type BenchProgressEvent } from './run-model-benchmark.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const toyTask = path.resolve(here, '../../../../tasks/custom-dev/toy_fail_pytest/task.yaml');

let root: string;
let tasks: LoadedTask[];
beforeAll(async () => {
  const loaded = await loadTask(toyTask);
  tasks = ['task_a', 'task_b'].map((id) => ({ ...loaded, task: { ...loaded.task, id } }));
});
beforeEach(() => {
  root = makeTemporaryDirectory('bench');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('runModelBenchmark', () => {
  it('runs every model on every task K times within the global and per-provider limits, after the probe dropped the silent model', async () => {
    const inFlight = new Map<string, number>();
    const peak = new Map<string, number>();
    let running = 0;
    let peakRunning = 0;
    const attempts: string[] = [];
    const events: BenchProgressEvent[] = [];
    const run = await runModelBenchmark({
      models: ['alpha/one', 'alpha/two', 'beta/one', 'gamma/down'],
      tasks,
      runs: 2,
      concurrency: 3,
      perProviderConcurrency: 1,
      outDir: root,
      probe: async (model) => (model === 'gamma/down' ? { isAnswering: false, message: '404 model not found' } : { isAnswering: true, message: 'ok' }),
      onProgress: (event) => events.push(event),
      runAttempt: async (input) => {
        const { attempt } = input;
        const { task, repeat } = attempt;
        const model = attempt.model as string;
        const provider = providerOf(model);
        inFlight.set(provider, (inFlight.get(provider) ?? 0) + 1);
        peak.set(provider, Math.max(peak.get(provider) ?? 0, inFlight.get(provider) ?? 0));
        running += 1;
        peakRunning = Math.max(peakRunning, running);
        attempts.push(`${model} ${task.task.id} #${repeat} in ${path.basename(attempt.folder)}`);
        // Yield a few times so other attempts could start if the limits allowed it.
        for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        inFlight.set(provider, (inFlight.get(provider) ?? 1) - 1);
        running -= 1;
        if (model === 'beta/one' && task.task.id === 'task_b' && repeat === 2) throw new Error('provider key missing');
        return fakeAttemptRecord(input);
      },
    });
    expect(Math.max(...peak.values())).toBe(1);
    // Two providers answer, one attempt each at a time (how many overlap depends on the host's pace).
    expect(peakRunning).toBeLessThanOrEqual(2);
    expect(attempts).toHaveLength(3 * 2 * 2);
    expect(attempts).toContain('alpha/two task_b #2 in alpha__two');
    expect(attempts.some((attempt) => attempt.startsWith('gamma/down'))).toBe(false);
    const byModel = Object.fromEntries(run.entries.map((entry) => [entry.model, entry]));
    expect(byModel['gamma/down']).toMatchObject({ isDropped: true, probe: { isAnswering: false, message: '404 model not found' }, errors: [] });
    expect(byModel['beta/one']?.errors).toEqual(['task_b #2: provider key missing']);
    expect(byModel['alpha/one']).toMatchObject({ isDropped: false, folder: path.join(root, 'alpha__one'), errors: [] });
    expect(run).toMatchObject({ outDir: root, runs: 2, taskCount: 2 });
    expect(events.filter((event) => event.type === 'probe')).toHaveLength(4);
    expect(events.filter((event) => event.type === 'attempt-error').map((event) => event.type === 'attempt-error' && `${event.attempt.attemptId}: ${event.error}`)).toEqual(['beta__one/task_b/r2: provider key missing']);
    expect((await readdir(root)).sort()).toEqual(['alpha__one', 'alpha__two', 'attempts.jsonl', 'beta__one', 'run.json']);
  });

  it('starts no attempt once the signal is aborted, and passes it to the running ones', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const run = await runModelBenchmark({
      models: ['alpha/one', 'beta/one'],
      tasks,
      runs: 3,
      concurrency: 2,
      outDir: root,
      signal: controller.signal,
      runAttempt: async (input) => {
        started.push(input.attempt.model as string);
        if (started.length === 2) controller.abort();
        await new Promise<void>((resolve) => (input.signal.aborted ? resolve() : input.signal.addEventListener('abort', () => resolve(), { once: true })));
        return fakeAttemptRecord(input, { reason: 'INTERRUPTED', stage: 'agent_run', failureClass: 'infra' });
      },
    });
    // Which of the two starts first depends on each attempt's preparation; that only two ever start does not.
    expect([...started].sort()).toEqual(['alpha/one', 'beta/one']);
    expect(run.entries.flatMap((entry) => entry.errors)).toEqual([]);
  });

  it('writes to artifacts/runs/<timestamp> without an out folder, as ab run and its --help say (issue 27)', async () => {
    const previous = process.cwd();
    process.chdir(root);
    try {
      const run = await runModelBenchmark({ models: ['alpha/one'], tasks: tasks.slice(0, 1), runAttempt: async (input) => fakeAttemptRecord(input) });
      expect(path.relative(root, run.outDir).split(path.sep).slice(0, 2)).toEqual(['artifacts', 'runs']);
      expect(run.entries[0]?.folder.startsWith(run.outDir)).toBe(true);
    } finally {
      process.chdir(previous);
    }
  });

  it("resumes a run of models without naming them again: no models means the run's (as ab run --resume passes them)", async () => {
    const runDir = path.join(root, 'run');
    const started = await runModelBenchmark({ models: ['alpha/one'], tasks, outDir: runDir, runAttempt: async () => Promise.reject(new Error('stopped before the attempt')) });
    expect(started.isComplete).toBe(false);
    const resumed = await runModelBenchmark({ models: [], tasks, resume: runDir, runAttempt: async (input) => fakeAttemptRecord(input) });
    expect(resumed.plan.models).toEqual(['alpha/one']);
    expect(resumed.isComplete).toBe(true);
  });

  it('rejects bad limits and a missing task selection by their option name', async () => {
    const runAttempt = async (input: AttemptTryInput) => fakeAttemptRecord(input);
    await expect(runModelBenchmark({ models: ['a/b'], tasks, runs: 0, outDir: root, runAttempt })).rejects.toThrow('--runs: expected a whole number ≥ 1, found 0');
    await expect(runModelBenchmark({ models: ['a/b'], tasks, perProviderConcurrency: 1.5, outDir: path.join(root, 'other'), runAttempt })).rejects.toThrow('--per-provider: expected a whole number ≥ 1, found 1.5');
    await expect(runModelBenchmark({ models: 'a/b', outDir: root, runAttempt })).rejects.toThrow('tasks: name exactly one of a task file, a suite or loaded tasks (found 0)');
    await expect(runModelBenchmark({ models: 'not a model', tasks, outDir: root, runAttempt })).rejects.toThrow('--models (entry 1): "not a model" is not a model name');
  });

  it('loads one task file, or a suite without its flaky tasks (unless includeFlaky)', async () => {
    const seen: string[] = [];
    const runAttempt = async (input: AttemptTryInput) => {
      seen.push(input.attempt.task.task.id);
      return fakeAttemptRecord(input);
    };
    await runModelBenchmark({ models: ['a/b'], task: toyTask, outDir: path.join(root, 'one'), runAttempt });
    expect(seen).toEqual(['toy_fail_pytest']);

    // A suite of two copies of the toy task, one labelled flaky.
    const text = await readFile(toyTask, 'utf8');
    const tasksDir = path.join(root, 'tasks');
    for (const [id, label] of [['steady', 'toy'], ['shaky', 'flaky']] as const) {
      await mkdir(path.join(tasksDir, 'custom-dev', id), { recursive: true });
      await writeFile(path.join(tasksDir, 'custom-dev', id, 'task.yaml'), text.replace('id: toy_fail_pytest', `id: ${id}`).replace('  - toy\n', `  - ${label}\n`));
    }
    seen.length = 0;
    await runModelBenchmark({ models: ['a/b'], suite: 'custom-dev', tasksDir, outDir: path.join(root, 'suite'), runAttempt });
    expect(seen).toEqual(['steady']);
    seen.length = 0;
    await runModelBenchmark({ models: ['a/b'], suite: 'custom-dev', tasksDir, includeFlaky: true, outDir: path.join(root, 'suite-with-flaky'), runAttempt });
    expect(seen.sort()).toEqual(['shaky', 'steady']);
  });
});
