#!/usr/bin/env node
// Benchmark of warm sandboxes at the level of a run: the same small `ab run` (the scripted agent on
// the custom-dev toy tasks toy_fail_pytest and toy_one_liner, two repeats each: 4 attempts at -j 2,
// real Docker) with the run's sandbox pool, and without it (`sandboxPoolSize: 0`: every sandbox
// created cold, the baseline), in one process. Each attempt takes two sandboxes (its own and its
// verdict's). Prints per run: wall time, the median and p95 time from request to sandbox ready
// (the pool's own count, warm and cold alike), warm and cold takes, and the attempts that passed
// (a setup that timed out on a loaded machine shows there, not as a faster run), and the run's
// efficiency (issue 26): the CPU seconds its containers used, read from their cgroups every half
// second while they live (so a lower bound: a container's last half second can be missed), ÷ cores
// ÷ wall time; and the load average, since the machine may be shared. Reports, exits 0
// whatever the timings and 1 on an exception; leaves no container behind. --quick: one task, one repeat.
//
//   node packages/harness/bench/suite-pool.bench.mjs [--runs 2] [--quick]
//
// Imports the built package: `pnpm --filter @agentbench/harness build` first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listManagedContainers, readContainerCpuSeconds, removeManagedContainers } from '@agentbench/sandbox';
import { runEfficiency } from '@agentbench/scheduler';
import { loadTask } from '@agentbench/schemas';
import { RepoCache, runAgentRun } from '../dist/index.js';
import { wholeNumberArgument as argument, isSkippedWithoutDocker, percentile, recordFigure, sized } from '../../../scripts/bench-figures.mjs';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TASK_IDS = sized(['toy_fail_pytest', 'toy_one_liner'], ['toy_fail_pytest']);

function ms(value) {
  return Number.isNaN(value) ? '-' : `${value.toFixed(1)} ms`;
}

/**
 * Samples the CPU seconds of a run's containers every `intervalMs` from their cgroups, keeping each
 * container's highest reading; `stop()` gives the sum. The run's containers are those of its tasks
 * (each attempt labels them with its own run id) that did not exist before the run started.
 */
async function sampleRunCpu(taskIds, intervalMs = 500) {
  const containersOfTasks = async () => (await Promise.all(taskIds.map((taskId) => listManagedContainers({ taskId }).catch(() => [])))).flat();
  const before = new Set((await containersOfTasks()).map((container) => container.id));
  const seconds = new Map();
  let isStopped = false;
  const sample = async () => {
    for (const container of await containersOfTasks()) {
      if (before.has(container.id)) continue;
      const used = await readContainerCpuSeconds(container.id);
      if (used !== undefined) seconds.set(container.id, Math.max(used, seconds.get(container.id) ?? 0));
    }
  };
  const loop = (async () => {
    while (!isStopped) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return async () => {
    isStopped = true;
    await loop;
    return [...seconds.values()].reduce((sum, value) => sum + value, 0);
  };
}

async function measuredRun({ name, tasks, runs, cache, scratch, sandboxPoolSize }) {
  const outDir = path.join(scratch, name);
  const loadBefore = loadavg()[0];
  const stopSampling = await sampleRunCpu([...new Set([...tasks.map((loaded) => loaded.task.id), 'sandbox-pool'])]);
  const started = performance.now();
  const result = await runAgentRun({ tasks, runs, variant: 'scripted', concurrency: 2, retries: 0, mirrors: [], cache, outDir, ...(sandboxPoolSize === undefined ? {} : { sandboxPoolSize }) });
  const wallMs = performance.now() - started;
  const cpuSeconds = await stopSampling();
  const records = readFileSync(path.join(outDir, 'attempts.jsonl'), 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  const runId = JSON.parse(readFileSync(path.join(outDir, 'run.json'), 'utf8')).run_id;
  const takes = result.sandboxPool?.recentTakeMs ?? [];
  return {
    name,
    wallMs,
    efficiency: runEfficiency(cpuSeconds, availableParallelism(), wallMs / 1000),
    load: [loadBefore, loadavg()[0]],
    readyMedian: percentile(takes, 0.5),
    readyP95: percentile(takes, 0.95),
    warmTakes: result.sandboxPool?.warmTakes ?? 0,
    coldTakes: result.sandboxPool?.coldTakes ?? 0,
    // Looks at which the pool held a warm start back because the host was busy: why a take was not warm.
    heldStarts: result.sandboxPool?.heldStarts ?? 0,
    passed: records.filter((record) => record.result.passed).length,
    attempts: records.length,
    reasons: [...new Set(records.map((record) => record.result.failure_reason).filter((reason) => reason !== null))],
    runIds: [runId, ...records.map((record) => record.run_id)],
  };
}

export async function runSuitePoolBench({ runs = 2, log = console.log } = {}) {
  execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
  const tasks = await Promise.all(TASK_IDS.map((id) => loadTask(path.join(repositoryRoot, 'tasks/custom-dev', id, 'task.yaml'))));
  const scratch = mkdtempSync(path.join(tmpdir(), 'suite-pool-bench-'));
  const cache = new RepoCache({ directory: path.join(scratch, 'cache') });
  const figures = [];
  try {
    // Cold first: the warm run then cannot owe its speed to a page cache the cold one filled.
    figures.push(await measuredRun({ name: 'without pool (every sandbox cold)', tasks, runs, cache, scratch, sandboxPoolSize: 0 }));
    figures.push(await measuredRun({ name: 'with the run’s pool (default size)', tasks, runs, cache, scratch }));
  } finally {
    for (const runId of figures.flatMap((figure) => figure.runIds)) {
      if ((await listManagedContainers({ runId })).length > 0) await removeManagedContainers({ runId });
    }
    rmSync(scratch, { recursive: true, force: true });
  }

  log(`ab run, scripted agent, ${TASK_IDS.join(' + ')} × ${runs} repeats = ${TASK_IDS.length * runs} attempts at -j 2 (2 sandboxes each: agent + verdict)`);
  log(`${'run'.padEnd(38)} ${'wall'.padStart(11)} ${'ready median'.padStart(13)} ${'ready p95'.padStart(11)}  warm/cold takes  held  passed  efficiency  load (1 min, before → after)`);
  for (const figure of figures) {
    const reasons = figure.reasons.length === 0 ? '' : `  (${figure.reasons.join(', ')})`;
    const efficiency = figure.efficiency === undefined ? '-' : `${(figure.efficiency.value * 100).toFixed(0)} %`;
    log(`${figure.name.padEnd(38)} ${ms(figure.wallMs).padStart(11)} ${ms(figure.readyMedian).padStart(13)} ${ms(figure.readyP95).padStart(11)}  ${`${figure.warmTakes}/${figure.coldTakes}`.padEnd(15)}  ${String(figure.heldStarts).padStart(4)}  ${`${figure.passed}/${figure.attempts}`.padEnd(6)}  ${efficiency.padStart(10)}  ${figure.load.map((value) => value.toFixed(1)).join(' → ')}${reasons}`);
  }
  const [cold, warm] = figures;
  if (cold !== undefined && warm !== undefined) {
    log(`the pool: wall time ${((warm.wallMs / cold.wallMs) * 100).toFixed(0)}% of the cold run's, sandbox ready ${ms(warm.readyMedian)} median against ${ms(cold.readyMedian)}`);
    recordFigure('suite-pool', { name: 'ab run wall time with the run’s pool', value: warm.wallMs / 1000, unit: 's', baseline: { name: 'without pool (every sandbox cold)', value: cold.wallMs / 1000 }, target: '≥ 10 % faster than without, never slower' });
    recordFigure('suite-pool', { name: 'efficiency with the run’s pool (container CPU s ÷ cores ÷ wall)', value: (warm.efficiency?.value ?? Number.NaN) * 100, unit: '%', baseline: { name: 'without pool', value: (cold.efficiency?.value ?? Number.NaN) * 100 } });
    recordFigure('suite-pool', { name: 'sandbox ready with the run’s pool, median', value: warm.readyMedian, unit: 'ms', baseline: { name: 'without pool', value: cold.readyMedian } });
  }
  return figures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!isSkippedWithoutDocker('suite-pool')) await runSuitePoolBench({ runs: argument('runs', sized(2, 1)) });
}
