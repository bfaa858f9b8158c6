import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listManagedContainers } from '@agentbench/sandbox';
import { loadTask, type AttemptRecord, type LoadedTask } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoCache, runAgentRun, validateSuite } from '../src/index.js';
import { SANDBOX_POOL_FOLDER } from '../src/run/run-sandbox-pool.js';
import { containersLeftBy, dockerSkipReason, RUNNER_IMAGE } from './helpers/docker-context.js';
import { createGitRepository } from './helpers/git-repository.js';

const skipReason = dockerSkipReason('sandbox-pool-runs.docker.test.ts', RUNNER_IMAGE);
const SUITE = 'pool-dev';
/**
 * The pool warms in the background only with idle CPU, which a CI machine running the tests may or
 * may not have: these runs' pools see a host that is always busy, so only the starts warmed ahead at
 * a run's start (which do not ask) are warm, and the counts are exact.
 */
const FIXING_PATCH = ['--- a/status.txt', '+++ b/status.txt', '@@ -1 +1 @@', '-broken', '+fixed', ''].join('\n');

/**
 * A small suite of shell tasks (no pip: a loaded machine keeps their setups far below their
 * timeouts), each with a setup, so all share one pool key: three that fail at baseline and are
 * fixed by their scripted agent, one that passes at baseline, one whose setup fails.
 */
async function writeSuite(root: string): Promise<string> {
  const shas = createGitRepository(path.join(root, 'repo'), [
    {
      message: 'broken',
      files: {
        'status.txt': 'broken\n',
        'check.sh': 'status=$(cat status.txt); [ -f ../prepared.txt ] || { echo "setup did not run"; exit 2; }; [ "$status" = fixed ] && { echo "1 passed"; exit 0; }; echo "FAILED: status is $status"; exit 1\n',
      },
    },
    { message: 'fixed', files: { 'status.txt': 'fixed\n' } },
  ]);
  const tasksDir = path.join(root, 'tasks');
  const tasks: Array<{ id: string; commit: string; setup: string }> = [
    { id: 'pool_fix_a', commit: shas[0] as string, setup: 'echo ok > ../prepared.txt' },
    { id: 'pool_fix_b', commit: shas[0] as string, setup: 'echo ok > ../prepared.txt' },
    { id: 'pool_fix_c', commit: shas[0] as string, setup: 'echo ok > ../prepared.txt' },
    { id: 'pool_passing', commit: shas[1] as string, setup: 'echo ok > ../prepared.txt' },
    { id: 'pool_setup_fails', commit: shas[0] as string, setup: 'exit 3' },
  ];
  for (const task of tasks) {
    const folder = path.join(tasksDir, SUITE, task.id);
    await mkdir(folder, { recursive: true });
    const script = [{ tool: 'read_file', args: { path: 'status.txt' } }, { tool: 'apply_patch', args: { unified_diff: FIXING_PATCH } }];
    const yaml = [
      'task_spec_version: "1.0"',
      `id: ${task.id}`,
      `suite: ${SUITE}`,
      'repo:',
      '  url: ../../../repo',
      `  commit: ${task.commit}`,
      'environment:',
      `  docker_image: ${RUNNER_IMAGE}`,
      '  workdir: /workspace',
      '  timeout_sec: 60',
      'setup:',
      `  commands: ${JSON.stringify([task.setup])}`,
      'run:',
      '  command: sh check.sh',
      'agent:',
      '  entrypoint: scripted',
      `  script: ${JSON.stringify(script)}`,
    ];
    await writeFile(path.join(folder, 'task.yaml'), `${yaml.join('\n')}\n`);
  }
  return tasksDir;
}

async function readRecords(file: string): Promise<AttemptRecord[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AttemptRecord);
}

describe.skipIf(skipReason !== undefined)('warm sandboxes for suites and ab run, in real Docker', () => {
  let scratch: string;
  let cache: RepoCache;
  let tasksDir: string;
  const runIds: string[] = [];

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'sandbox-pool-runs-'));
    cache = new RepoCache({ directory: path.join(scratch, 'cache') });
    tasksDir = await writeSuite(scratch);
  });

  afterAll(async () => {
    const left = (await Promise.all(runIds.map((runId) => containersLeftBy(runId)))).flat();
    // Anything this process made and left (a try's own run id is not in runIds).
    const mine = (await listManagedContainers()).filter((container) => container.creatorPid === process.pid);
    await rm(scratch, { recursive: true, force: true });
    expect(left, 'containers left behind').toEqual([]);
    expect(mine.map((container) => container.name), 'containers of this process left behind').toEqual([]);
  });

  it('validate-suite warms its first tasks’ sandboxes ahead and serves their mounted workspaces from its pool, with the verdicts of cold sandboxes', async () => {
    const notes: string[] = [];
    // A host that is always busy: only the warm-ahead starts (not asked) happen, so the counts are exact.
    const busyHost = { whyBusy: () => 'busy host' };
    const result = await validateSuite({
      suite: SUITE,
      tasksDir,
      outDir: path.join(scratch, 'suite'),
      concurrency: 2,
      mirrors: [],
      cache,
      onDebug: (note) => notes.push(note),
      sandboxPoolIdleCapacity: busyHost,
    });
    runIds.push(result.runId);

    const cold = await validateSuite({ suite: SUITE, tasksDir, outDir: path.join(scratch, 'suite-cold'), concurrency: 2, mirrors: [], cache, sandboxPoolSize: 0 });
    runIds.push(cold.runId);
    const outcomesOf = (run: typeof result) => Object.fromEntries(run.tasks.map((task) => [task.taskId, [task.status, task.record?.result.failure_reason ?? null]]));
    expect(cold.sandboxPool).toMatchObject({ warmTakes: 0, coldTakes: 5 });
    expect(outcomesOf(result)).toEqual(outcomesOf(cold));
    expect(outcomesOf(result)).toEqual({
      pool_fix_a: ['valid', null],
      pool_fix_b: ['valid', null],
      pool_fix_c: ['valid', null],
      pool_passing: ['invalid', 'BASELINE_NOT_FAILING'],
      pool_setup_fails: ['invalid', 'SETUP_FAILED'],
    });
    // The first two tasks' sandboxes (one per slot, same image, limits and network) were started at the
    // run's start and handed out warm; the refills behind them wait for an idle host, so the rest are cold.
    expect(result.sandboxPool, `pool notes:\n${notes.join('\n')}`).toMatchObject({ warmTakes: 2, coldTakes: 3 });
    // Cold takes are the pool's own (nothing ready), never a mounted workspace it refused.
    expect(notes.filter((note) => /creating the sandbox cold/.test(note))).toEqual([]);
    expect(existsSync(path.join(result.runDir, SANDBOX_POOL_FOLDER))).toBe(false);
    // The workspaces kept for the failed tasks hold their repositories, and no staging folder is left.
    expect(await readFile(path.join(result.runDir, 'workspace', 'pool_passing', 'prepared.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(path.join(result.runDir, 'workspace', '.pool_passing.clone'))).toBe(false);
  }, 600_000);

  it('ab run warms its first attempts\' sandboxes ahead, even on a busy host, and holds the refills while it is busy (each verdict starts from its snapshot), with the verdicts of cold sandboxes', async () => {
    const tasks: LoadedTask[] = await Promise.all(['pool_fix_a', 'pool_fix_b'].map((id) => loadTask(path.join(tasksDir, SUITE, id, 'task.yaml'))));
    const common = { tasks, variant: 'scripted', concurrency: 2, retries: 0, mirrors: [], cache };
    // Two rounds at -j 2 on a host that always says it is busy: the first round's two takes get the
    // sandboxes warmed ahead at the run's start (the host is not asked), the second's are cold (no refill while busy).
    // Only the agents' sandboxes come from the pool: each verdict's starts from its attempt's snapshot.
    const busyHost = { looks: 0, whyBusy: () => `busy host, look ${(busyHost.looks += 1)}` };
    const warm = await runAgentRun({ ...common, runs: 2, outDir: path.join(scratch, 'run-pool'), sandboxPoolIdleCapacity: busyHost });
    const cold = await runAgentRun({ ...common, runs: 1, sandboxPoolSize: 0, outDir: path.join(scratch, 'run-cold') });
    for (const run of [warm, cold]) {
      const runJson = JSON.parse(await readFile(path.join(run.outDir, 'run.json'), 'utf8')) as { run_id: string; efficiency?: { cpu_seconds: number; cores: number; wall_seconds: number; value: number } };
      runIds.push(runJson.run_id);
      expect(existsSync(path.join(run.outDir, SANDBOX_POOL_FOLDER))).toBe(false);
      // The efficiency figure, from the containers' cgroups: the tests' python ran, so some CPU was used.
      const efficiency = runJson.efficiency;
      expect(efficiency?.cpu_seconds ?? 0).toBeGreaterThan(0);
      expect(efficiency?.value ?? 0).toBeGreaterThan(0);
      expect(efficiency?.value).toBeCloseTo((efficiency?.cpu_seconds ?? 0) / (efficiency?.cores ?? 1) / (efficiency?.wall_seconds ?? 1), 3);
    }

    const verdicts = async (outDir: string) => {
      const byTask: Record<string, boolean[]> = {};
      for (const record of await readRecords(path.join(outDir, 'attempts.jsonl'))) (byTask[record.task_id] ??= []).push(record.result.passed);
      return byTask;
    };
    expect(await verdicts(cold.outDir)).toEqual({ pool_fix_a: [true], pool_fix_b: [true] });
    expect(await verdicts(warm.outDir)).toEqual({ pool_fix_a: [true, true], pool_fix_b: [true, true] });
    expect(warm.sandboxPool).toMatchObject({ warmTakes: 2, coldTakes: 2 });
    expect(warm.sandboxPool?.heldStarts).toBe(busyHost.looks);
    expect(busyHost.looks).toBeGreaterThanOrEqual(1);
    expect(cold.sandboxPool).toMatchObject({ warmTakes: 0, coldTakes: 2 });
  }, 600_000);
});
