#!/usr/bin/env node
// Benchmark of warm sandboxes at the level of a run: the same small `ab run` (the scripted agent on
// the custom-dev toy tasks toy_fail_pytest and toy_one_liner, two repeats each: 4 attempts at -j 2,
// real Docker) with the run's sandbox pool, and without it (`sandboxPoolSize: 0`: every sandbox
// created cold, the baseline), in one process, as `--pairs` same-run pairs in alternating order.
// Each attempt takes its own sandbox from the pool (its verdict's starts from its snapshot).
// Prints per run: wall time, the median and p95 time from request to sandbox ready
// (the pool's own count, warm and cold alike), warm and cold takes, and the attempts that passed
// (a setup that timed out on a loaded machine shows there, not as a faster run), and the run's
// efficiency (issue 26): the CPU seconds its containers used, read from their cgroups every half
// second while they live (so a lower bound: a container's last half second can be missed), ÷ cores
// ÷ wall time; the machine's idle share over the run (/proc/stat): a pool moves creates earlier
// without removing any, so the cold run's idle share is the most any pool can save; and the load
// average, since the machine may be shared. Reports, exits 0
// whatever the timings and 1 on an exception; leaves no container behind. --quick: one task, one repeat, one pair.
//
//   node packages/harness/bench/suite-pool.bench.mjs [--runs 2] [--pairs 2] [--quick]
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
import { wholeNumberArgument as argument, isSkippedWithoutDocker, machineBusySeconds, percentile, recordFigure, sized } from '../../../scripts/bench-figures.mjs';

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
  const busyBefore = machineBusySeconds();
  const started = performance.now();
  const result = await runAgentRun({ tasks, runs, variant: 'scripted', concurrency: 2, retries: 0, mirrors: [], cache, outDir, ...(sandboxPoolSize === undefined ? {} : { sandboxPoolSize }) });
  const wallMs = performance.now() - started;
  const machineBusy = machineBusySeconds() - busyBefore;
  const cpuSeconds = await stopSampling();
  const records = readFileSync(path.join(outDir, 'attempts.jsonl'), 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  const runId = JSON.parse(readFileSync(path.join(outDir, 'run.json'), 'utf8')).run_id;
  const takes = result.sandboxPool?.recentTakeMs ?? [];
  return {
    name,
    wallMs,
    efficiency: runEfficiency(cpuSeconds, availableParallelism(), wallMs / 1000),
    // The share of the cores' time nothing used. A pool moves creates earlier, it does not remove
    // them: a run cannot end before all its CPU work is done, so the pool can save at most the cold
    // run's idle share of its wall time (less what the pool's own checks cost).
    idleShare: Math.max(0, 1 - machineBusy / (availableParallelism() * (wallMs / 1000))),
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

export async function runSuitePoolBench({ runs = 2, pairs = 1, log = console.log } = {}) {
  execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
  const tasks = await Promise.all(TASK_IDS.map((id) => loadTask(path.join(repositoryRoot, 'tasks/custom-dev', id, 'task.yaml'))));
  const scratch = mkdtempSync(path.join(tmpdir(), 'suite-pool-bench-'));
  const cache = new RepoCache({ directory: path.join(scratch, 'cache') });
  const measured = [];
  const cold = (pair) => ({ name: 'without pool (every sandbox cold)', tasks, runs, cache, scratch: path.join(scratch, `pair-${pair}`), sandboxPoolSize: 0 });
  const pooled = (pair) => ({ name: 'with the run’s pool (default size)', tasks, runs, cache, scratch: path.join(scratch, `pair-${pair}`) });
  try {
    // Same-run pairs, the order alternating (cold first in the first pair, so the warm run cannot owe
    // its speed to a page cache the cold one filled; then the other way round): on a shared machine a
    // figure is only read beside its pair.
    for (let pair = 0; pair < pairs; pair += 1) {
      const order = pair % 2 === 0 ? [cold(pair), pooled(pair)] : [pooled(pair), cold(pair)];
      const [first, second] = [await measuredRun(order[0]), await measuredRun(order[1])];
      measured.push(pair % 2 === 0 ? { cold: first, warm: second } : { cold: second, warm: first });
    }
  } finally {
    for (const runId of measured.flatMap(({ cold: coldRun, warm }) => [...coldRun.runIds, ...warm.runIds])) {
      if ((await listManagedContainers({ runId })).length > 0) await removeManagedContainers({ runId });
    }
    rmSync(scratch, { recursive: true, force: true });
  }

  log(`ab run, scripted agent, ${TASK_IDS.join(' + ')} × ${runs} repeats = ${TASK_IDS.length * runs} attempts at -j 2 (the agent's sandbox from the pool, the verdict's from its snapshot); ${pairs} same-run pair(s)`);
  log(`${'run'.padEnd(38)} ${'wall'.padStart(11)} ${'ready median'.padStart(13)} ${'ready p95'.padStart(11)}  warm/cold takes  held  passed  efficiency  idle  load (1 min, before → after)`);
  const ratios = [];
  for (const { cold: coldRun, warm } of measured) {
    for (const figure of [coldRun, warm]) {
      const reasons = figure.reasons.length === 0 ? '' : `  (${figure.reasons.join(', ')})`;
      const efficiency = figure.efficiency === undefined ? '-' : `${(figure.efficiency.value * 100).toFixed(0)} %`;
      log(`${figure.name.padEnd(38)} ${ms(figure.wallMs).padStart(11)} ${ms(figure.readyMedian).padStart(13)} ${ms(figure.readyP95).padStart(11)}  ${`${figure.warmTakes}/${figure.coldTakes}`.padEnd(15)}  ${String(figure.heldStarts).padStart(4)}  ${`${figure.passed}/${figure.attempts}`.padEnd(6)}  ${efficiency.padStart(10)}  ${`${(figure.idleShare * 100).toFixed(0)} %`.padStart(4)}  ${figure.load.map((value) => value.toFixed(1)).join(' → ')}${reasons}`);
    }
    ratios.push(warm.wallMs / coldRun.wallMs);
    log(`  this pair: wall time with the pool ${((warm.wallMs / coldRun.wallMs) * 100).toFixed(0)}% of the cold run's (no pool can go below ${((1 - coldRun.idleShare) * 100).toFixed(0)}%: the cold run's busy share), sandbox ready ${ms(warm.readyMedian)} median against ${ms(coldRun.readyMedian)}`);
  }
  if (measured.length > 0) {
    // The pair whose ratio is the median stands for the bench (with two pairs, the slower of the two for the pool).
    const medianPair = measured[[...ratios.keys()].sort((left, right) => ratios[left] - ratios[right])[Math.floor(ratios.length / 2)]];
    const { cold: coldRun, warm } = medianPair;
    log(`the pool: wall time ${ratios.map((ratio) => `${(ratio * 100).toFixed(0)}%`).join(', ')} of the cold run's in ${ratios.length} pair(s); median pair ${((warm.wallMs / coldRun.wallMs) * 100).toFixed(0)}%`);
    recordFigure('suite-pool', { name: 'ab run wall time with the run’s pool (median pair)', value: warm.wallMs / 1000, unit: 's', baseline: { name: 'without pool (every sandbox cold)', value: coldRun.wallMs / 1000 }, target: '≥ 10 % faster than without, never slower' });
    recordFigure('suite-pool', { name: 'the most any pool could save: the cold run’s idle share (median pair)', value: coldRun.idleShare * 100, unit: '%', baseline: { name: 'saved by the run’s pool', value: (1 - warm.wallMs / coldRun.wallMs) * 100 } });
    recordFigure('suite-pool', { name: 'efficiency with the run’s pool (container CPU s ÷ cores ÷ wall)', value: (warm.efficiency?.value ?? Number.NaN) * 100, unit: '%', baseline: { name: 'without pool', value: (coldRun.efficiency?.value ?? Number.NaN) * 100 } });
    recordFigure('suite-pool', { name: 'sandbox ready with the run’s pool, median', value: warm.readyMedian, unit: 'ms', baseline: { name: 'without pool', value: coldRun.readyMedian } });
  }
  return measured.flatMap(({ cold: coldRun, warm }) => [coldRun, warm]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!isSkippedWithoutDocker('suite-pool')) await runSuitePoolBench({ runs: argument('runs', sized(2, 1)), pairs: argument('pairs', sized(2, 1)) });
}
