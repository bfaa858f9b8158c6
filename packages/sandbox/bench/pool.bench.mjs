#!/usr/bin/env node
// Benchmark of the warm sandbox pool: time from request to first command completed with a
// small workspace (fixtures/toy_repo copied in), taken from a warm pool, beside the same path
// cold (DockerSandbox.create) and the engine's own create+start floor (a bare container, no
// executor, no workspace), all in one run. Also prints where a take spends its time (hand-out
// vs first command) and the memory a warm sandbox holds (the engine's stats API: cgroup usage,
// and usage less the page cache). Reports and exits 0 whatever the timings, 1 on an exception; leaves
// no container behind.
//
//   node packages/sandbox/bench/pool.bench.mjs [--takes 20] [--colds 10] [--quick]
//
// Imports the built package (../dist/index.js); AGENTBENCH_SANDBOX_MODULE may point at another build.
import { fileURLToPath } from 'node:url';
import Dockerode from 'dockerode';
import { measureEngineFloor } from './engine-floor.mjs';
import { wholeNumberArgument as argument, isSkippedWithoutDocker, percentile, recordFigure, sized, summary } from '../../../scripts/bench-figures.mjs';

const image = process.env.AGENTBENCH_RUNNER_IMAGE ?? 'agentbench/py-runner:0.1.0';
const toyRepo = fileURLToPath(new URL('../../../fixtures/toy_repo', import.meta.url));
const target = { takeMedianMs: 100 };

function ms(value) {
  return Number.isNaN(value) ? '-' : `${value.toFixed(1)} ms`;
}

function mib(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function firstCommand(sandbox) {
  const result = await sandbox.exec(['cat', 'README.md']);
  if (result.exitCode !== 0 || result.stdout.length === 0) throw new Error(`first command failed (exit ${result.exitCode}): ${result.stderr}`);
}

export async function runPoolBench({ takes = 20, colds = 10, log = console.log } = {}) {
  const moduleUrl = process.env.AGENTBENCH_SANDBOX_MODULE ?? new URL('../dist/index.js', import.meta.url).href;
  const { DockerSandbox, createSandboxPool, listManagedContainers, removeManagedContainers } = await import(moduleUrl);
  const docker = new Dockerode();
  const runId = `bench-pool-${Date.now()}`;
  const labels = { runId, taskId: 'bench-pool' };
  const spec = { image, limits: { memoryMb: 512, cpus: 1 } };
  const handOut = { hostWorkspace: toyRepo, env: { BENCH: '1' } };
  const figures = {};
  try {
    // The engine's floor: create+start of a bare container from the same image.
    const { starts: floor } = await measureEngineFloor({ docker, image, runId, runs: colds });
    figures.engineFloor = summary(floor);

    // Cold: create (executor start, workspace copy) → first command.
    const cold = [];
    for (let run = 0; run < colds; run += 1) {
      const started = performance.now();
      const sandbox = await DockerSandbox.create({ ...spec, ...handOut, labels }, { docker });
      try {
        await firstCommand(sandbox);
        cold.push(performance.now() - started);
      } finally {
        await sandbox.dispose();
      }
    }
    figures.cold = summary(cold);

    // Warm: take → first command, each request on a pool that is full (the refill waited for between takes).
    const coldNotes = [];
    const pool = await createSandboxPool('docker', { docker, size: 2, labels, onDebug: (note) => coldNotes.push(note) });
    try {
      await pool.warm(spec);
      const warmIds = (await listManagedContainers({ poolId: pool.id }, { docker })).map((container) => container.id);
      const memory = await Promise.all(
        warmIds.map(async (id) => {
          const stats = await docker.getContainer(id).stats({ stream: false });
          const usage = stats.memory_stats?.usage ?? Number.NaN;
          const cache = stats.memory_stats?.stats?.inactive_file ?? stats.memory_stats?.stats?.total_inactive_file ?? stats.memory_stats?.stats?.cache ?? 0;
          return { usage, withoutCache: usage - cache };
        }),
      );
      figures.warmMemory = { usage: Math.max(...memory.map((entry) => entry.usage)), withoutCache: Math.max(...memory.map((entry) => entry.withoutCache)), sandboxes: memory.length };
      const total = [];
      const handOuts = [];
      const commands = [];
      for (let run = 0; run < takes; run += 1) {
        await pool.warm(spec);
        const started = performance.now();
        const sandbox = await pool.take({ ...spec, ...handOut, labels });
        const taken = performance.now();
        try {
          await firstCommand(sandbox);
          const done = performance.now();
          total.push(done - started);
          handOuts.push(taken - started);
          commands.push(done - taken);
        } finally {
          await sandbox.dispose();
        }
      }
      figures.warm = summary(total);
      figures.warmHandOut = summary(handOuts);
      figures.warmFirstCommand = summary(commands);
      figures.coldFallbacks = coldNotes.filter((note) => /cold/.test(note)).length;
    } finally {
      await pool.dispose();
    }
  } finally {
    await removeManagedContainers({ runId }, { docker }).catch(() => undefined);
  }

  log(`image ${image}, workspace fixtures/toy_repo, limits ${JSON.stringify(spec.limits)}`);
  log(`${'request → first command completed'.padEnd(44)} ${'median'.padStart(10)} ${'p95'.padStart(10)}  runs`);
  const row = (name, figure) => log(`${name.padEnd(44)} ${ms(figure.median).padStart(10)} ${ms(figure.p95).padStart(10)}  ${figure.runs}`);
  row('engine floor: bare create+start (baseline)', figures.engineFloor);
  row('cold: DockerSandbox.create + command', figures.cold);
  row('warm pool: take + command', figures.warm);
  row('  of which take (hand-out, workspace in)', figures.warmHandOut);
  row('  of which first command', figures.warmFirstCommand);
  log(`takes served cold instead of warm: ${figures.coldFallbacks} of ${figures.warm.runs}`);
  log(`memory a warm sandbox holds (max of ${figures.warmMemory.sandboxes}): ${mib(figures.warmMemory.usage)} cgroup usage, ${mib(figures.warmMemory.withoutCache)} without the inactive page cache`);
  const verdict = figures.warm.median <= target.takeMedianMs ? 'PASS' : 'FAIL';
  log(`target: warm take → first command median ≤ ${target.takeMedianMs} ms: ${verdict} (${ms(figures.warm.median)}; cold ${ms(figures.cold.median)}, engine floor ${ms(figures.engineFloor.median)})`);
  recordFigure('pool', { name: 'warm take → first command, median', value: figures.warm.median, unit: 'ms', baseline: { name: 'cold DockerSandbox.create + command', value: figures.cold.median }, target: `≤ ${target.takeMedianMs} ms` });
  recordFigure('pool', { name: 'engine floor: bare create+start, median', value: figures.engineFloor.median, unit: 'ms' });
  recordFigure('pool', { name: 'memory a warm sandbox holds, without the inactive page cache', value: figures.warmMemory.withoutCache / 1024 / 1024, unit: 'MiB' });
  return figures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!isSkippedWithoutDocker('pool', image)) await runPoolBench({ takes: argument('takes', sized(20, 1)), colds: argument('colds', sized(10, 1)) });
}
