import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTask, type AttemptRecord, type EngineConfig, type LoadedTask } from '@agentbench/schemas';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeAttemptRecord } from '../../test/helpers/fake-attempt-record.js';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { runAgentRun } from './run-agent-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const toyTask = path.resolve(here, '../../../../tasks/custom-dev/toy_fail_pytest/task.yaml');

let root: string;
let tasks: LoadedTask[];
let servers: Server[] = [];
beforeAll(async () => {
  const loaded = await loadTask(toyTask);
  tasks = ['task_a', 'task_b', 'task_c'].map((id) => ({ ...loaded, task: { ...loaded.task, id } }));
});
beforeEach(() => {
  root = makeTemporaryDirectory('agent-run-engines');
});
afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  servers = [];
  await rm(root, { recursive: true, force: true });
});

/**
 * A stand-in Docker engine on a Unix socket: answers the version ping, has every image, and has no events.
 * `stop()` takes it away as a stopped dockerd goes (the socket is gone).
 */
async function fakeEngine(name: string, capacity: number): Promise<{ config: EngineConfig; stop: () => Promise<void> }> {
  const socket = path.join(root, `${name}.sock`);
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url?.includes('/events') === true) response.end('');
    else response.end(JSON.stringify({ Version: '27.0.0', ApiVersion: '1.47', Id: 'sha256:runner' }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  const stop = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { config: { name, host: `unix://${socket}`, capacity }, stop };
}

async function linesOf(runDir: string): Promise<AttemptRecord[]> {
  const text = await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as AttemptRecord);
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

describe('runAgentRun on several engines', () => {
  it('places each try on the engine with the most free capacity, within the capacities whatever -j says, and records the engine', async () => {
    const first = await fakeEngine('first', 1);
    const second = await fakeEngine('second', 2);
    const runDir = path.join(root, 'run');
    const running = new Map<string, number>([['first', 0], ['second', 0]]);
    let peak = 0;
    const peakByEngine = new Map<string, number>();
    const run = await runAgentRun({
      tasks,
      runs: 3,
      concurrency: 10,
      outDir: runDir,
      engines: [first.config, second.config],
      runAttempt: async (input) => {
        const engine = input.engine as string;
        running.set(engine, (running.get(engine) ?? 0) + 1);
        peak = Math.max(peak, [...running.values()].reduce((sum, count) => sum + count, 0));
        peakByEngine.set(engine, Math.max(peakByEngine.get(engine) ?? 0, running.get(engine) ?? 0));
        for (let turn = 0; turn < 4; turn += 1) await tick();
        running.set(engine, (running.get(engine) ?? 0) - 1);
        return fakeAttemptRecord(input);
      },
    });
    expect(run.progress).toMatchObject({ total: 9, done: 9, passed: 9 });
    const records = await linesOf(runDir);
    expect(records).toHaveLength(9);
    expect(new Set(records.map((record) => record.engine))).toEqual(new Set(['first', 'second']));
    expect(peak).toBe(3);
    expect(peakByEngine).toEqual(new Map([['first', 1], ['second', 2]]));
    const runJson = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { options: { concurrency: number } };
    expect(runJson.options.concurrency).toBe(3);
  });

  it('records a try lost to an engine that stopped answering as infra (engine_unreachable) and retries it on the other engine', async () => {
    const first = await fakeEngine('first', 1);
    const second = await fakeEngine('second', 2);
    const runDir = path.join(root, 'run');
    const tried: string[] = [];
    const run = await runAgentRun({
      tasks,
      runs: 2,
      retryBackoffMs: 0,
      concurrency: 3,
      outDir: runDir,
      engines: [first.config, second.config],
      runAttempt: async (input) => {
        tried.push(`${input.attempt.attemptId}#${input.try}@${input.engine}`);
        await tick();
        if (input.engine === 'second') {
          // The engine goes away under the try: the sandbox fails during the agent's run (the agent's class, unless the engine is judged lost).
          await second.stop();
          const record = input.completeRecord(fakeAttemptRecord(input, { reason: 'SANDBOX_ERROR', stage: 'agent_run', failureClass: 'agent' }));
          // As the attempt pipeline does: its attempt.json is written before the engine is judged.
          await mkdir(input.tryDir, { recursive: true });
          await writeFile(path.join(input.tryDir, 'attempt.json'), JSON.stringify(record));
          return record;
        }
        return fakeAttemptRecord(input);
      },
    });
    expect(run.progress).toMatchObject({ total: 6, done: 6, passed: 6, errored: 0 });
    const records = await linesOf(runDir);
    const byAttempt = new Map<string, AttemptRecord[]>();
    for (const record of records) byAttempt.set(record.attempt_id as string, [...(byAttempt.get(record.attempt_id as string) ?? []), record]);
    expect(byAttempt.size).toBe(6);
    const lost = [...byAttempt.values()].filter((tries) => tries.length > 1);
    expect(lost.length).toBeGreaterThan(0);
    for (const tries of lost) {
      expect(tries).toHaveLength(2);
      expect(tries[0]).toMatchObject({ try: 1, engine: 'second', failure_class: 'infra', errored: false, result: { failure_reason: 'SANDBOX_ERROR' } });
      expect(tries[0]?.engine_unreachable).toMatch(/^engine 'second' stopped answering \((ENOENT|EPIPE|ECONNRESET|ECONNREFUSED)/);
      expect(tries[1]).toMatchObject({ try: 2, engine: 'first', result: { passed: true } });
      // The try's own attempt.json says the same as its line.
      const attemptFile = path.join(runDir, 'scripted', 'agent_runs', tries[0]?.task_id as string, `r${tries[0]?.repeat}-try1`, 'attempt.json');
      expect(JSON.parse(await readFile(attemptFile, 'utf8'))).toMatchObject({ failure_class: 'infra', engine: 'second', engine_unreachable: tries[0]?.engine_unreachable });
    }
    for (const tries of byAttempt.values()) expect(tries.at(-1)?.result.passed).toBe(true);
    // Nothing was placed on the lost engine after it was judged lost.
    const onSecond = tried.filter((entry) => entry.endsWith('@second'));
    expect(onSecond.length).toBe(lost.length);
  });

  it('with no retry left, a lost try is final and errored', async () => {
    const only = await fakeEngine('only', 1);
    const other = await fakeEngine('other', 1);
    const runDir = path.join(root, 'run');
    const run = await runAgentRun({
      tasks: tasks.slice(0, 1),
      retries: 0,
      outDir: runDir,
      engines: [only.config, other.config],
      runAttempt: async (input) => {
        await only.stop();
        return fakeAttemptRecord(input, { reason: 'SANDBOX_ERROR', stage: 'final_test', failureClass: 'agent' });
      },
    });
    expect(run.progress).toMatchObject({ total: 1, done: 1, errored: 1 });
    expect(await linesOf(runDir)).toMatchObject([{ try: 1, engine: 'only', failure_class: 'infra', errored: true }]);
  });

  it('refuses to start on an engine that does not answer, before the run folder exists', async () => {
    const alive = await fakeEngine('alive', 1);
    const runDir = path.join(root, 'run');
    await expect(
      runAgentRun({ tasks, outDir: runDir, engines: [alive.config, { name: 'dead', host: `unix://${path.join(root, 'nobody.sock')}`, capacity: 1 }], runAttempt: async (input) => fakeAttemptRecord(input) }),
    ).rejects.toThrow(/engine 'dead' \(unix:\/\/.*nobody\.sock\) does not answer/);
    expect(existsSync(runDir)).toBe(false);
  });

  it('refuses engines together with a sandbox factory of its own', async () => {
    const alive = await fakeEngine('alive', 1);
    await expect(
      runAgentRun({ tasks, outDir: path.join(root, 'run'), engines: [alive.config], createSandbox: async () => Promise.reject(new Error('unused')), runAttempt: async (input) => fakeAttemptRecord(input) }),
    ).rejects.toThrow(/engines.*cannot be given with createSandbox/);
  });
});
