import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineSet, listManagedContainers } from '@agentbench/sandbox';
import type { AttemptRecord } from '@agentbench/schemas';
import { dockerSkipReason, RUNNER_IMAGE } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { createSecondEngine, secondEngineSkipReason, type SecondEngine } from './second-engine.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const TASK_COUNT = 8;

function skipReason(): string | undefined {
  const docker = dockerSkipReason('engines.docker.test.ts');
  if (docker !== undefined) return docker;
  const reason = secondEngineSkipReason();
  if (reason === undefined) return undefined;
  if (process.env['AGENTBENCH_REQUIRE_DOCKER'] === '1') throw new Error(`AGENTBENCH_REQUIRE_DOCKER=1 but the second engine cannot be made: ${reason}`);
  console.warn(`[skipped] engines.docker.test.ts: ${reason}`);
  return reason;
}
const skip = skipReason();

let engine: SecondEngine | undefined;
let scratch = '';
let enginesFile = '';
let tasksDir = '';

/** A suite of TASK_COUNT copies of the toy task whose baseline fails as expected. */
function writeSuite(dir: string): void {
  const original = readFileSync(path.join(repoRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml'), 'utf8');
  for (let index = 1; index <= TASK_COUNT; index += 1) {
    const id = `engines_toy_${index}`;
    const task = original
      .replace(/^id: .*$/m, `id: ${id}`)
      .replace(/^suite: .*$/m, 'suite: engines')
      .replace(/url: .*toy_repo\.git$/m, `url: ${path.join(repoRoot, 'fixtures/repos/toy_repo.git')}`)
      // A shared build machine can be slow: the engines, not the toy task's 60 s, are under test.
      .replace(/^  timeout_sec: \d+$/m, '  timeout_sec: 300');
    mkdirSync(path.join(dir, 'engines', id), { recursive: true });
    writeFileSync(path.join(dir, 'engines', id, 'task.yaml'), task);
  }
}

function readRecords(runDir: string): AttemptRecord[] {
  return readFileSync(path.join(runDir, 'attempts.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AttemptRecord);
}

async function managedOnBoth(runId: string): Promise<string[]> {
  const engineSet = await EngineSet.open(JSON.parse(readFileSync(enginesFile, 'utf8')).engines);
  const names: string[] = [];
  for (const { name, docker } of engineSet.engines) for (const container of await listManagedContainers({ runId }, { docker })) names.push(`${name}: ${container.name}`);
  return names;
}

describe.skipIf(skip !== undefined)('several Docker engines: the local one and a second dockerd over TCP with TLS', () => {
  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'ab-engines-'));
    engine = createSecondEngine();
    await engine.start();
    enginesFile = path.join(scratch, 'engines.json');
    writeFileSync(
      enginesFile,
      JSON.stringify({
        engines: [
          { name: 'local', host: 'unix:///var/run/docker.sock', capacity: 2 },
          { name: 'second', host: engine.host, tls: engine.tls, capacity: 2 },
        ],
      }),
    );
    tasksDir = path.join(scratch, 'tasks');
    writeSuite(tasksDir);
  }, 120_000);

  afterAll(() => {
    engine?.destroy();
    rmSync(scratch, { recursive: true, force: true });
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
    const engineSet = await EngineSet.open(JSON.parse(readFileSync(enginesFile, 'utf8')).engines);
    const second = engineSet.engine('second').docker;
    let isStopped = false;
    // Stop the second engine once an attempt has been running on it for a moment.
    const watcher = (async () => {
      for (let waited = 0; waited < 300_000 && !isStopped; waited += 250) {
        const containers = await listManagedContainers({}, { docker: second }).catch(() => []);
        if (containers.length > 0) {
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          await engine?.stop();
          isStopped = true;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const run = await runCli(['validate-suite', 'engines', '--tasks', tasksDir, '--out', path.join(scratch, 'stopped'), '--engines', enginesFile, '-j', '4', '--json']);
    isStopped = true;
    await watcher;
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
