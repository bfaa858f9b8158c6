import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptRecord } from '@agentbench/schemas';
import { runCli } from './run-cli.js';
import { managedOnBoth, openEngines, readRecords, setUpTwoEngines, stopSecondEngineWhenBusy, twoEnginesSkipReason, type TwoEngines } from './two-engines.js';

const TASK_COUNT = 8;
const skip = twoEnginesSkipReason('run-engines.docker.test.ts');

let engines: TwoEngines | undefined;

function triesByAttempt(records: readonly AttemptRecord[]): Map<string, AttemptRecord[]> {
  const byAttempt = new Map<string, AttemptRecord[]>();
  for (const record of records) byAttempt.set(record.attempt_id as string, [...(byAttempt.get(record.attempt_id as string) ?? []), record]);
  return byAttempt;
}

function runAgents(out: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const setup = engines as TwoEngines;
  return runCli(['run', '--suite', 'engines', '--tasks', setup.tasksDir, '--agent', 'scripted', '--engines', setup.enginesFile, '-j', '4', '--out', out, '--json']);
}

describe.skipIf(skip !== undefined)('ab run on two Docker engines: the local one and a second dockerd over TCP with TLS', () => {
  beforeAll(async () => {
    engines = await setUpTwoEngines({ taskCount: TASK_COUNT, capacity: 2, scratchPrefix: 'ab-run-engines-' });
  }, 120_000);

  afterAll(() => {
    engines?.destroy();
  });

  it(`sends the runner image to the new engine, spreads ${TASK_COUNT} attempts over both, names each one's engine in its record, and leaves no container`, async () => {
    const setup = engines as TwoEngines;
    const out = path.join(setup.scratch, 'spread');
    const run = await runAgents(out);
    expect(run.stderr).toMatch(/^sent \S+ to second: \d+ MB in [\d.]+ s$/m);
    expect(run.exitCode).toBe(0);
    const records = readRecords(out);
    expect(records.map((record) => record.task_id).sort()).toEqual([...setup.taskIds].sort());
    expect(records.every((record) => record.result.passed && record.try === 1)).toBe(true);
    expect(new Set(records.map((record) => record.engine))).toEqual(new Set(['local', 'second']));
    expect(await managedOnBoth(setup.enginesFile, { creatorPid: process.pid })).toEqual([]);
  }, 900_000);

  it('goes on when the second engine stops mid-run: the lost tries are recorded as infra on it and retried on the first, every attempt ends once', async () => {
    const setup = engines as TwoEngines;
    const second = (await openEngines(setup.enginesFile)).engine('second').docker;
    const watcher = stopSecondEngineWhenBusy(setup, second);
    const out = path.join(setup.scratch, 'stopped');
    const started = performance.now();
    const run = await runAgents(out);
    watcher.cancel();
    await watcher.done;
    expect(run.exitCode).toBe(0);

    const byAttempt = triesByAttempt(readRecords(out));
    expect([...byAttempt.keys()].sort()).toEqual(setup.taskIds.map((id) => `scripted/${id}/r1`).sort());
    // No (attempt, try) twice, and each attempt's last try is its one verdict: a pass.
    for (const tries of byAttempt.values()) {
      expect(tries.map((record) => record.try)).toEqual(tries.map((_, index) => index + 1));
      expect(tries.at(-1)).toMatchObject({ result: { passed: true }, errored: false });
    }
    const interrupted = [...byAttempt.values()].filter((tries) => tries.length > 1);
    expect(interrupted.length).toBeGreaterThan(0);
    for (const tries of interrupted) {
      expect(tries.slice(0, -1).every((record) => record.engine === 'second' && record.failure_class === 'infra' && /^engine 'second' stopped answering/.test(record.engine_unreachable ?? ''))).toBe(true);
      expect(tries.at(-1)?.engine).toBe('local');
    }
    expect(run.stderr).toMatch(/try 1 on second \w+ \(infra\): engine 'second' stopped answering/);
    console.log(`[run-engines] ${interrupted.length} attempt(s) lost to the stopped engine and retried on local; run took ${((performance.now() - started) / 1000).toFixed(0)} s`);

    // The stopped engine kept the killed containers: back up, `ab cleanup` removes them (on the second engine only:
    // the local one is shared with other runs), and none of this process is left anywhere.
    await setup.engine.start();
    const secondOnly = path.join(setup.scratch, 'second-only.json');
    const listed = JSON.parse(readFileSync(setup.enginesFile, 'utf8')) as { engines: Array<{ name: string }> };
    writeFileSync(secondOnly, JSON.stringify({ engines: listed.engines.filter((engine) => engine.name === 'second') }));
    const cleanup = await runCli(['cleanup', '--engines', secondOnly]);
    expect(cleanup.exitCode).toBe(0);
    expect(await managedOnBoth(setup.enginesFile, { creatorPid: process.pid })).toEqual([]);
  }, 900_000);
});
