import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNNER_IMAGE } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { managedOnBoth as managedOnEngines, openEngines, readRecords, setUpTwoEngines, stopSecondEngineWhenBusy, twoEnginesSkipReason, type TwoEngines } from './two-engines.js';

const TASK_COUNT = 8;
const skip = twoEnginesSkipReason('engines.docker.test.ts');

let engines: TwoEngines | undefined;
let engine: TwoEngines['engine'] | undefined;
let scratch = '';
let enginesFile = '';
let tasksDir = '';

async function managedOnBoth(runId: string): Promise<string[]> {
  return managedOnEngines(enginesFile, { runId });
}

describe.skipIf(skip !== undefined)('several Docker engines: the local one and a second dockerd over TCP with TLS', () => {
  beforeAll(async () => {
    engines = await setUpTwoEngines({ taskCount: TASK_COUNT, capacity: 2, scratchPrefix: 'ab-engines-' });
    ({ engine, scratch, enginesFile, tasksDir } = engines);
  }, 120_000);

  afterAll(() => {
    engines?.destroy();
  });

  it('ab image push sends the runner image to the second engine without a registry, then finds it there', async () => {
    const push = await runCli(['image', 'push', '--engine', 'second', '--engines', enginesFile, '--image', RUNNER_IMAGE]);
    expect(push.stderr.replace(/^sending .*\n/gm, '')).toBe('');
    expect(push.stdout).toMatch(new RegExp(`^sent ${RUNNER_IMAGE.replace(/[.]/g, '\\.')} to second: \\d+ MB in [\\d.]+ s\\n$`));
    expect(push.exitCode).toBe(0);
    const again = await runCli(['image', 'push', '--engine', 'second', '--engines', enginesFile, '--image', RUNNER_IMAGE]);
    expect(again.stdout).toBe(`${RUNNER_IMAGE} is already on second\n`);
  }, 180_000);

  it('ab doctor checks every engine: reachable, version, image, network isolation', async () => {
    const doctor = await runCli(['doctor', '--engines', enginesFile, '--json']);
    const report = JSON.parse(doctor.stdout) as { engines: Array<{ name: string; status: string; detail: string }> };
    const byName = new Map(report.engines.map((check) => [check.name, check]));
    for (const name of ['local', 'second']) {
      expect(byName.get(`engine ${name}`)?.detail).toMatch(/Docker \d+\.\d+/);
      expect(byName.get(`engine ${name} image`)?.status).toBe('ok');
      expect(byName.get(`engine ${name} network isolation`)).toMatchObject({ status: 'ok', detail: 'a sandbox without network has no interface but lo' });
    }
    expect(byName.get('engine second')?.detail).toContain(engine?.host);
  }, 180_000);

  it(`spreads ${TASK_COUNT} attempts over both engines, names each one's engine in its record, and leaves no container`, async () => {
    const run = await runCli(['validate-suite', 'engines', '--tasks', tasksDir, '--out', path.join(scratch, 'spread'), '--engines', enginesFile, '-j', '4', '--json']);
    const result = JSON.parse(run.stdout) as { run_dir: string; run: { run_id: string }; tasks: Array<{ task_id: string; status: string }> };
    expect(result.tasks.map((task) => task.status)).toEqual(new Array(TASK_COUNT).fill('valid'));
    expect(run.exitCode).toBe(0);
    const records = readRecords(result.run_dir);
    expect(records).toHaveLength(TASK_COUNT);
    expect(new Set(records.map((record) => record.engine))).toEqual(new Set(['local', 'second']));
    expect(await managedOnBoth(result.run.run_id)).toEqual([]);
  }, 600_000);

  it('goes on when the second engine stops mid-run: every attempt recorded once, the lost ones run again on the first', async () => {
    const engineSet = await openEngines(enginesFile);
    const second = engineSet.engine('second').docker;
    const watcher = stopSecondEngineWhenBusy(engines as TwoEngines, second);
    const run = await runCli(['validate-suite', 'engines', '--tasks', tasksDir, '--out', path.join(scratch, 'stopped'), '--engines', enginesFile, '-j', '4', '--json']);
    watcher.cancel();
    await watcher.done;
    const result = JSON.parse(run.stdout) as { run_dir: string; run: { run_id: string }; tasks: Array<{ task_id: string; status: string }> };
    expect(result.tasks.map((task) => task.status)).toEqual(new Array(TASK_COUNT).fill('valid'));
    expect(run.exitCode).toBe(0);
    const records = readRecords(result.run_dir);
    expect(records.map((record) => record.task_id).sort()).toEqual(Array.from({ length: TASK_COUNT }, (_, index) => `engines_toy_${index + 1}`).sort());
    const lost = [...run.stderr.matchAll(/^(engines_toy_\d+): engine 'second' stopped answering/gm)].map((match) => match[1]);
    expect(lost.length).toBeGreaterThan(0);
    for (const taskId of lost) expect(records.find((record) => record.task_id === taskId)?.engine).toBe('local');

    // The stopped engine kept the killed containers: back up, `ab cleanup` removes them, and none is left anywhere.
    await engine?.start();
    const cleanup = await runCli(['cleanup', '--engines', enginesFile, '--run-id', result.run.run_id]);
    expect(cleanup.exitCode).toBe(0);
    expect(await managedOnBoth(result.run.run_id)).toEqual([]);
  }, 600_000);
});
