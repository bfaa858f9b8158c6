import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { listManagedContainers } from '@agentbench/sandbox';
import { AttemptRecordSchema, RunRecordSchema, type AttemptRecord } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../../test-support/ensure-built.js';
import { RepoCache, validateSuite } from '../src/index.js';
import { containersLeftBy, dockerSkipReason } from './helpers/docker-context.js';
import { cloneBare, createGitRepository, makeTemporaryDirectory } from './helpers/git-repository.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const skipReason = dockerSkipReason('suite-resume.docker.test.ts');
const taskIds = ['slow_a', 'slow_b', 'slow_c', 'slow_d', 'slow_e'];

interface SpawnedRun {
  child: ChildProcess;
  runDir: string;
  runId: string;
  exited: Promise<number | null>;
  stderr: () => string;
}

async function readRecords(runDir: string): Promise<AttemptRecord[]> {
  const text = await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.endsWith('}'))
    .map((line) => v.parse(AttemptRecordSchema, JSON.parse(line)));
}

/** Waits until `check` holds, polling (no time limit of its own: vitest's test timeout bounds it). */
async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await sleep(200);
}

describe.skipIf(skipReason !== undefined)('interrupting and resuming a suite run (real processes, real Docker)', () => {
  let root: string;
  let tasksDir: string;
  const runIds: string[] = [];

  beforeAll(() => {
    // The child process runs the built package, as a user's `ab` would: built unless dist is newer than the sources.
    ensureBuilt(path.resolve(here, '..'), '@agentbench/harness');
    root = makeTemporaryDirectory('resume');
    const [sha] = createGitRepository(path.join(root, 'calc'), [
      {
        message: 'calc',
        files: {
          '.gitignore': '__pycache__/\n',
          'src/calc.py': 'def add(a, b):\n    return a - b\n',
          'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
        },
      },
    ]);
    const bare = path.join(root, 'calc.git');
    cloneBare(path.join(root, 'calc'), bare);
    tasksDir = path.join(root, 'tasks');
    for (const id of taskIds) {
      mkdirSync(path.join(tasksDir, 'slow', id), { recursive: true });
      writeFileSync(
        path.join(tasksDir, 'slow', id, 'task.yaml'),
        [
          'task_spec_version: "1.0"',
          `id: ${id}`,
          'suite: slow',
          'repo:',
          `  url: ${bare}`,
          `  commit: ${sha}`,
          'environment:',
          '  docker_image: agentbench/py-runner:0.1.0',
          '  workdir: /workspace',
          '  timeout_sec: 60',
          'run:',
          // slow_a finishes first and writes a record while the others still run for seconds,
          // so "halfway" (a record written, a task still running) holds for long, not by luck:
          // at -j 2 the four slow tasks run in two rounds, so it holds for two of their sleeps
          // (each resume runs its unfinished tasks in two rounds too: every second here costs four).
          `  command: "sleep ${id === 'slow_a' ? 2 : 6}; PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider"`,
          '',
        ].join('\n'),
      );
    }
  }, 300_000);

  afterAll(async () => {
    const left = (await Promise.all(runIds.map((runId) => containersLeftBy(runId)))).flat();
    await rm(root, { recursive: true, force: true });
    expect(left, 'containers left behind').toEqual([]);
  });

  async function spawnRun(name: string): Promise<SpawnedRun> {
    const child = spawn(process.execPath, [path.join(here, 'fixtures', 'run-suite.mjs'), tasksDir, path.join(root, name), 'slow', '2', path.join(root, 'cache')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal === null ? code : -1)));
    const started = new Promise<{ runDir: string; runId: string }>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout.split('\n')[0];
        if (stdout.includes('\n') && line !== undefined) resolve(JSON.parse(line) as { runDir: string; runId: string });
      });
      void exited.then((code) => reject(new Error(`the suite process exited (${String(code)}) before starting: ${stderr}`)));
    });
    const { runDir, runId } = await started;
    runIds.push(runId);
    return { child, runDir, runId, exited, stderr: () => stderr };
  }

  /** At least one record written and a task without a record still has its container: halfway. */
  async function waitForHalfway(run: SpawnedRun): Promise<void> {
    await waitUntil(async () => {
      const recorded = new Set((await readRecords(run.runDir)).map((record) => record.task_id));
      const containers = await listManagedContainers({ runId: run.runId });
      return recorded.size >= 1 && containers.some((container) => container.taskId !== undefined && !recorded.has(container.taskId));
    });
  }

  async function expectOneFinalRecordEach(runDir: string): Promise<AttemptRecord[]> {
    const records = await readRecords(runDir);
    const finals = records.filter((record) => record.result.failure_reason !== 'INTERRUPTED');
    expect(finals.map((record) => record.task_id).sort()).toEqual(taskIds);
    for (const record of finals) expect(record.result.failure_reason).toBeNull();
    return records;
  }

  it('on SIGINT records running tasks as INTERRUPTED, removes their containers, exits 130, and resumes', async () => {
    const run = await spawnRun('sigint');
    await waitForHalfway(run);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(await listManagedContainers({ runId: run.runId })).toEqual([]);
    const runRecord = v.parse(RunRecordSchema, JSON.parse(await readFile(path.join(run.runDir, 'run.json'), 'utf8')));
    expect(runRecord.status).toBe('interrupted');
    const records = await readRecords(run.runDir);
    expect(records.filter((record) => record.result.failure_reason === 'INTERRUPTED').length).toBeGreaterThanOrEqual(1);
    expect(records.length).toBeLessThan(taskIds.length + 2);
    expect(existsSync(path.join(run.runDir, 'run.lock'))).toBe(false);
    expect(run.stderr()).toContain('interrupted: finishing nothing new');

    const resumed = await validateSuite({ suite: 'slow', tasksDir, resumeDir: run.runDir, concurrency: 3, mirrors: [], cache: new RepoCache({ directory: path.join(root, 'cache') }) });
    expect(resumed.isResumed).toBe(true);
    expect(resumed.isInterrupted).toBe(false);
    expect(resumed.runRecord).toMatchObject({ run_id: run.runId, status: 'completed', counts: { total: 5, passed: 5, failed: 0 } });
    await expectOneFinalRecordEach(run.runDir);
    expect(await listManagedContainers({ runId: run.runId })).toEqual([]);
  }, 300_000);

  it('after SIGKILL halfway, --resume runs only what has no final record and leaves no container', async () => {
    const run = await spawnRun('sigkill');
    await waitForHalfway(run);
    run.child.kill('SIGKILL');
    await run.exited;
    const finishedBefore = (await readRecords(run.runDir)).map((record) => record.task_id);
    // The killed process could not clean up: its containers are still there.
    const orphans = await listManagedContainers({ runId: run.runId });
    expect(orphans.length).toBeGreaterThanOrEqual(1);
    // A workspace's removal the kill cut short: the hidden folder the run had renamed it to.
    const leftover = path.join(run.runDir, 'workspace', '.slow_a.removing-0123abcd');
    mkdirSync(path.join(leftover, 'src'), { recursive: true });
    writeFileSync(path.join(leftover, 'src', 'calc.py'), 'left\n');

    const started: string[] = [];
    const resumed = await validateSuite({
      suite: 'slow',
      tasksDir,
      resumeDir: run.runDir,
      concurrency: 3,
      mirrors: [],
      cache: new RepoCache({ directory: path.join(root, 'cache') }),
      onEvent: (event) => {
        if (event.type === 'task-started') started.push(event.taskId);
      },
    });
    expect(started.sort()).toEqual(taskIds.filter((taskId) => !finishedBefore.includes(taskId)));
    expect(resumed.runRecord.status).toBe('completed');
    const records = await expectOneFinalRecordEach(run.runDir);
    // No INTERRUPTED record: SIGKILL gives no chance to write one.
    expect(records).toHaveLength(taskIds.length);
    expect(await listManagedContainers({ runId: run.runId })).toEqual([]);
    expect(existsSync(leftover), 'a killed run\'s removal left to the resume').toBe(false);
  }, 300_000);
});
