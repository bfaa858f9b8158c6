import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '@agentbench/sandbox';
import { loadTask, type AttemptRecord, type LoadedTask } from '@agentbench/schemas';
import { RUN_STOPPED_CAUSE } from '@agentbench/scoring';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { quietHost } from '../../../scheduler/test/helpers/quiet-host.js';
import { fakeAttemptRecord } from '../../test/helpers/fake-attempt-record.js';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { rm } from 'node:fs/promises';
import { ArtifactWriteError } from '../errors/artifact-write-error.js';
import { runAgentRun, type AttemptTryInput } from './run-agent-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const toyTask = path.resolve(here, '../../../../tasks/custom-dev/toy_fail_pytest/task.yaml');

let root: string;
let tasks: LoadedTask[];
beforeAll(async () => {
  const loaded = await loadTask(toyTask);
  tasks = ['task_a', 'task_b', 'task_c'].map((id) => ({ ...loaded, task: { ...loaded.task, id } }));
});
beforeEach(() => {
  root = makeTemporaryDirectory('agent-run');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function linesOf(runDir: string): Promise<AttemptRecord[]> {
  const text = await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as AttemptRecord);
}

const infra = { reason: 'SANDBOX_ERROR', stage: 'git_clone', failureClass: 'infra' } as const;
const agentKill = { reason: 'SANDBOX_ERROR', stage: 'agent_run', failureClass: 'agent' } as const;


describe('runAgentRun', () => {
  it('writes the plan to run.json and one record per attempt to attempts.jsonl, with attempt id, repeat and try', async () => {
    const runDir = path.join(root, 'run');
    const run = await runAgentRun({ tasks, models: ['alpha/one'], runs: 2, outDir: runDir, runAttempt: async (input) => fakeAttemptRecord(input) });
    const runJson = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { plan: Record<string, unknown>; status: string; counts: Record<string, number> };
    expect(runJson.plan).toMatchObject({ version: 1, models: ['alpha/one'], runs: 2, variant: 'llm', retries: 2, skip_baseline: true });
    expect(runJson.status).toBe('completed');
    expect(runJson.counts).toMatchObject({ total: 6, passed: 6, errored: 0 });
    const records = await linesOf(runDir);
    expect(records.map((record) => `${record.attempt_id} ${record.try}`).sort()).toEqual(
      ['task_a', 'task_b', 'task_c'].flatMap((task) => [1, 2].map((repeat) => `alpha__one/${task}/r${repeat} 1`)).sort(),
    );
    expect(run.progress).toMatchObject({ total: 6, done: 6, passed: 6, errored: 0, retried: 0 });
  });

  it('retries only infrastructure failures, the last try counts, and an attempt of infra failures only is errored', async () => {
    const runDir = path.join(root, 'run');
    const calls: string[] = [];
    const run = await runAgentRun({
      tasks,
      runs: 1,
      retries: 2,
      retryBackoffMs: 0,
      outDir: runDir,
      runAttempt: async (input) => {
        calls.push(`${input.attempt.task.task.id}#${input.try}`);
        const id = input.attempt.task.task.id;
        if (id === 'task_a') return fakeAttemptRecord(input, input.try < 2 ? infra : undefined); // infra, then a pass
        if (id === 'task_b') return fakeAttemptRecord(input, agentKill); // the agent killed its sandbox: no retry
        return fakeAttemptRecord(input, infra); // infra every time
      },
    });
    expect(calls.sort()).toEqual(['task_a#1', 'task_a#2', 'task_b#1', 'task_c#1', 'task_c#2', 'task_c#3']);
    const records = await linesOf(runDir);
    expect(records).toHaveLength(6);
    const final = (id: string): AttemptRecord | undefined => records.filter((record) => record.task_id === id).at(-1);
    expect(final('task_a')).toMatchObject({ try: 2, errored: false, result: { passed: true } });
    expect(final('task_b')).toMatchObject({ try: 1, errored: false, failure_class: 'agent' });
    expect(final('task_c')).toMatchObject({ try: 3, errored: true, failure_class: 'infra' });
    expect(records.filter((record) => record.task_id === 'task_c' && record.try !== 3).every((record) => record.errored === false)).toBe(true);
    expect(run.progress).toMatchObject({ done: 3, passed: 1, failed: 1, errored: 1, retried: 3 });
  });

  it('resumes only the attempts without a final try, never recording an (attempt, try) twice', async () => {
    const runDir = path.join(root, 'run');
    const controller = new AbortController();
    let finished = 0;
    await runAgentRun({
      tasks,
      runs: 2,
      concurrency: 1,
      outDir: runDir,
      signal: controller.signal,
      runAttempt: async (input) => {
        finished += 1;
        if (finished === 3) {
          controller.abort();
          return fakeAttemptRecord(input, { reason: 'INTERRUPTED', stage: 'agent_run', failureClass: 'infra', cause: RUN_STOPPED_CAUSE });
        }
        return fakeAttemptRecord(input);
      },
    });
    const first = await linesOf(runDir);
    expect(first).toHaveLength(3);
    // A kill -9 in the middle of a write leaves a torn last line.
    await appendFile(path.join(runDir, 'attempts.jsonl'), '{"schema_version":"0.1.0","run_');
    const ran: string[] = [];
    const resumed = await runAgentRun({
      resume: runDir,
      tasks,
      runAttempt: async (input) => {
        ran.push(`${input.attempt.attemptId}#${input.try}`);
        return fakeAttemptRecord(input);
      },
    });
    expect(ran).toHaveLength(4);
    expect(ran).toContain(`${first[2]?.attempt_id}#2`);
    const records = await linesOf(runDir);
    const pairs = records.map((record) => `${record.attempt_id}#${record.try}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    const finals = new Map(records.map((record) => [record.attempt_id, record]));
    expect(finals.size).toBe(6);
    expect([...finals.values()].every((record) => record.result.passed)).toBe(true);
    expect(resumed.isComplete).toBe(true);
  });

  it('refuses to resume with another plan, naming the field that differs', async () => {
    const runDir = path.join(root, 'run');
    await runAgentRun({ tasks, runs: 1, outDir: runDir, runAttempt: async (input) => fakeAttemptRecord(input) });
    const runAttempt = async (input: AttemptTryInput) => fakeAttemptRecord(input);
    await expect(runAgentRun({ resume: runDir, tasks, runs: 3, runAttempt })).rejects.toThrow(/another plan \(runs: the run has 1, this command asks for 3\)/);
    await expect(runAgentRun({ resume: runDir, tasks, models: ['alpha/one'], runAttempt })).rejects.toThrow(/models: the run has \[\], this command asks for \["alpha\/one"\]/);
    await expect(runAgentRun({ resume: runDir, tasks: tasks.slice(0, 2), runAttempt })).rejects.toThrow(/tasks: this command leaves out task_c/);
    await expect(runAgentRun({ tasks, outDir: runDir, runAttempt })).rejects.toThrow(/holds a run already \(run.json\); continue it with --resume/);
  });

  it('keeps the runtime in the plan: a resume inherits it, another one is refused, and an old run.json reads as runc', async () => {
    const runDir = path.join(root, 'run');
    const specs: unknown[] = [];
    const createSandbox = async (spec: unknown): Promise<never> => {
      specs.push(spec);
      throw new Error('not a real sandbox');
    };
    let isFirstRun = true;
    // The try asks its factory for a sandbox: what runtime does it get? task_a is cut off in the first run.
    const runAttempt = async (input: AttemptTryInput) => {
      await input.createSandbox({ image: 'img' } as never).catch(() => undefined);
      if (isFirstRun && input.attempt.task.task.id === 'task_a') throw new Error('killed');
      return fakeAttemptRecord(input);
    };
    await runAgentRun({ tasks: tasks.slice(0, 2), outDir: runDir, runtime: 'runsc', createSandbox, runAttempt });
    const runJson = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { plan: Record<string, unknown> };
    expect(runJson.plan['runtime']).toBe('runsc');
    await expect(runAgentRun({ resume: runDir, tasks: tasks.slice(0, 2), runtime: 'runc', createSandbox, runAttempt })).rejects.toThrow(/another plan \(runtime: the run has "runsc", this command asks for "runc"\)/);
    specs.length = 0;
    isFirstRun = false;
    await runAgentRun({ resume: runDir, tasks: tasks.slice(0, 2), createSandbox, runAttempt });
    expect(specs).toEqual([{ image: 'img', runtime: 'runsc' }]);

    const oldRun = path.join(root, 'old');
    await runAgentRun({ tasks: tasks.slice(0, 1), outDir: oldRun, runAttempt: async (input) => fakeAttemptRecord(input) });
    const oldJson = JSON.parse(await readFile(path.join(oldRun, 'run.json'), 'utf8')) as { plan: Record<string, unknown> };
    delete oldJson.plan['runtime'];
    await writeFile(path.join(oldRun, 'run.json'), JSON.stringify(oldJson));
    await expect(runAgentRun({ resume: oldRun, tasks: tasks.slice(0, 1), runtime: 'runsc', runAttempt })).rejects.toThrow(/runtime: the run has "runc", this command asks for "runsc"/);
    await expect(runAgentRun({ resume: oldRun, tasks: tasks.slice(0, 1), runAttempt })).resolves.toMatchObject({ isComplete: true });
  });

  it('says in one line that a folder to resume is not a run, naming it and run.json', async () => {
    const notRun = path.join(root, 'not-a-run');
    await mkdir(notRun);
    const runAttempt = async (input: AttemptTryInput) => fakeAttemptRecord(input);
    await expect(runAgentRun({ resume: notRun, runAttempt })).rejects.toThrow(
      `${notRun}: cannot resume: not an ab run folder (it has no run.json; expected the folder an \`ab run --out\` wrote, holding run.json)`,
    );
    await expect(runAgentRun({ resume: path.join(root, 'missing'), runAttempt })).rejects.toThrow(/missing: cannot resume: not an ab run folder \(no such folder;/);
    const failure = await runAgentRun({ resume: notRun, runAttempt }).catch((error: Error) => error);
    expect((failure as Error).message).not.toMatch(/ENOENT|\n/);
  });

  it('moves a try folder a killed run left behind into .interrupted/ and runs the try again in a fresh one', async () => {
    const runDir = path.join(root, 'run');
    let isStopping = true;
    const foldersFoundByTheRetry: string[][] = [];
    const runAttempt = async (input: AttemptTryInput) => {
      if (isStopping) {
        // The kill: the try's folder is there, its record never written.
        await mkdir(path.join(input.tryDir, 'workspace'), { recursive: true });
        throw new Error('killed');
      }
      foldersFoundByTheRetry.push(await readdir(path.dirname(input.tryDir)));
      await mkdir(input.tryDir);
      await writeFile(path.join(input.tryDir, 'events.jsonl'), '');
      return { ...fakeAttemptRecord(input), artifact_paths: { events: 'events.jsonl' } };
    };
    await runAgentRun({ tasks: tasks.slice(0, 1), outDir: runDir, runAttempt });
    isStopping = false;
    await runAgentRun({ resume: runDir, tasks: tasks.slice(0, 1), runAttempt });
    const aside = await readdir(path.join(runDir, '.interrupted'));
    expect(aside).toHaveLength(1);
    expect(aside[0]).toMatch(/^scripted__agent_runs__task_a__r1-try1-/);
    const [record] = await linesOf(runDir);
    // The leftover was gone before the try ran, and the run's copy of the record names the try's files from the run folder.
    expect(foldersFoundByTheRetry).toEqual([[]]);
    expect(record?.artifact_paths).toEqual({ events: 'scripted/agent_runs/task_a/r1-try1/events.jsonl' });
  });

  it('refuses a run folder locked by a live process, naming its pid, and takes over a dead one', async () => {
    const runDir = path.join(root, 'run');
    await runAgentRun({ tasks: tasks.slice(0, 1), outDir: runDir, runAttempt: async (input) => fakeAttemptRecord(input) });
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await writeFile(path.join(runDir, 'run.lock'), `${sleeper.pid}\n`);
      await expect(runAgentRun({ resume: runDir, tasks: tasks.slice(0, 1), runAttempt: async (input) => fakeAttemptRecord(input) })).rejects.toThrow(`in use by process ${sleeper.pid}`);
    } finally {
      sleeper.kill('SIGKILL');
    }
    await new Promise((resolve) => sleeper.once('exit', resolve));
    const resumed = await runAgentRun({ resume: runDir, tasks: tasks.slice(0, 1), runAttempt: async (input) => fakeAttemptRecord(input) });
    expect(resumed.isComplete).toBe(true);
    await expect(readFile(path.join(runDir, 'run.lock'), 'utf8')).rejects.toThrow();
  });

  it('stops on a write failure of its folder, with the error naming the path, and marks run.json failed', async () => {
    const runDir = path.join(root, 'run');
    const started: string[] = [];
    const run = runAgentRun({
      tasks,
      runs: 1,
      outDir: runDir,
      concurrency: 1,
      runAttempt: async (input) => {
        started.push(input.attempt.task.task.id);
        if (input.attempt.task.task.id === 'task_a') return fakeAttemptRecord(input);
        throw new ArtifactWriteError(path.join(input.tryDir, 'attempt.json'), 'ENOSPC');
      },
    });
    await expect(run).rejects.toThrow(/^could not write .*r1-try1\/attempt\.json: no space left on device$/);
    // task_b's failure is not retried (no later try could write either) and task_c never starts.
    expect(started).toEqual(['task_a', 'task_b']);
    expect((await linesOf(runDir)).map((record) => record.task_id)).toEqual(['task_a']);
    const runJson = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { status: string; failure?: string };
    expect(runJson.status).toBe('failed');
    expect(runJson.failure).toContain('no space left on device');
  });

  it('runs with -j auto within --max-jobs', async () => {
    const runDir = path.join(root, 'run');
    let inFlight = 0;
    let peak = 0;
    const run = await runAgentRun({
      tasks,
      runs: 3,
      concurrency: 'auto',
      maxJobs: 2,
      outDir: runDir,
      autoConcurrency: { ...quietHost, readFreeMemory: () => 64 * 1024 ** 3, sleep: () => new Promise((resolve) => setImmediate(resolve)) },
      runAttempt: async (input) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        return fakeAttemptRecord(input);
      },
    });
    expect(run.progress.done).toBe(9);
    expect(peak).toBeLessThanOrEqual(2);
  });

  it('grows -j auto by one per attempt, not per sandbox: the verdict sandbox does not let another attempt in', async () => {
    let inFlight = 0;
    let peak = 0;
    let isFirstDone = false;
    const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    const run = await runAgentRun({
      tasks,
      runs: 1,
      concurrency: 'auto',
      maxJobs: 8,
      outDir: path.join(root, 'run'),
      createSandbox: async () => ({}) as Sandbox,
      autoConcurrency: { ...quietHost, initialJobs: 1, readFreeMemory: () => 64 * 1024 ** 3, sleep: turn },
      runAttempt: async (input) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        if (input.attempt.task.task.id === 'task_a') {
          // The agent's sandbox, then the fresh verdict sandbox.
          await input.createSandbox({ image: 'runner', workdir: '/workspace' });
          await input.createSandbox({ image: 'runner', workdir: '/workspace' });
          // The second attempt comes in; a third, which two creates would have let in, gets half a second.
          while (inFlight < 2) await turn();
          const deadline = Date.now() + 500;
          while (inFlight < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
          isFirstDone = true;
        } else {
          while (!isFirstDone) await turn();
        }
        inFlight -= 1;
        return fakeAttemptRecord(input);
      },
    });
    expect(run.progress.done).toBe(3);
    // Started at one; task_a's start lets one more in (two creates would have let two).
    expect(peak).toBe(2);
    // run.json says how the limit moved (seconds into the run, limit): task_a's start made it 2 (a
    // window that ran at its limit may add one at the end), the throughput window it judged (three
    // attempts finished) and that no knee was found.
    const { auto } = JSON.parse(await readFile(path.join(root, 'run', 'run.json'), 'utf8')) as {
      auto: { knee: number | null; limit: number; limits: Array<[number, number]>; windows: Array<{ running: number; cpu_wait: number | null }> };
    };
    expect(auto.knee).toBeNull();
    expect(auto.limits[0]?.[1]).toBe(2);
    expect(auto.windows).toHaveLength(1);
    expect(auto.windows[0]?.cpu_wait).toBeNull();
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
