#!/usr/bin/env node
// Benchmark of the sandbox command paths and container start against baselines measured
// in the same run: a host `spawn` of `true`, a raw Engine API exec (dockerode, no
// executor), the `docker exec` CLI, a raw container create+start, and a bare `bwrap`
// spawn. DockerSandbox.create is timed cold (the engine makes the network namespace) and
// joining a started network holder (what suites do). Prints a table with the targets and
// PASS/FAIL per line; it reports and exits 0 whatever the timings (they vary by machine), 1 on an
// exception. Leaves no container behind.
//
//   node packages/sandbox/bench/sandbox.bench.mjs [--runs 200] [--quick]
//
// Imports the built package (../dist/index.js); AGENTBENCH_SANDBOX_MODULE may point at
// another build of it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import Dockerode from 'dockerode';
import { measureEngineFloor } from './engine-floor.mjs';
import { machineBusySeconds, percentile, recordFigure, sized, skipBench, summary } from '../../../scripts/bench-figures.mjs';

const defaultImage = process.env.AGENTBENCH_RUNNER_IMAGE ?? 'agentbench/py-runner:0.1.0';
const targets = { medianMs: 15, bwrapMedianMs: 12, commandsPerSecond: 100, startMs: 400 };

async function timeEach(runs, action) {
  const durations = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    await action(index);
    durations.push(performance.now() - started);
  }
  return durations;
}

async function spawnAndWait(file, args) {
  const child = spawn(file, args, { stdio: 'ignore' });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${file} ${args.join(' ')} exited with ${code}`);
}

async function rawEngineExec(docker, container) {
  const exec = await container.exec({ Cmd: ['true'], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  stream.resume();
  await new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
  const info = await exec.inspect();
  if (info.ExitCode !== 0 && info.ExitCode !== null) throw new Error(`raw exec exited with ${info.ExitCode}`);
}

async function throughput(sandbox, callers, total) {
  const perCaller = Math.ceil(total / callers);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      for (let index = 0; index < perCaller; index++) {
        const result = await sandbox.exec(['true']);
        if (result.exitCode !== 0) throw new Error(`exec exited with ${result.exitCode}`);
      }
    }),
  );
  return (perCaller * callers) / ((performance.now() - started) / 1000);
}

function format(value, unit) {
  if (value === undefined || Number.isNaN(value)) return '-';
  return `${value.toFixed(value < 10 ? 2 : 1)} ${unit}`;
}

/**
 * Runs the benchmark and returns its figures; `log` receives the table lines.
 * Returns `{ skipped }` when there is no engine or image.
 */
export async function runSandboxBench({ log = console.log, runs = 200, image = defaultImage, docker = new Dockerode() } = {}) {
  const moduleUrl = process.env.AGENTBENCH_SANDBOX_MODULE ?? new URL('../dist/index.js', import.meta.url).href;
  const { DockerSandbox, BwrapSandbox, NetworkHolderPool, ensureRootfs, isBwrapAvailable, removeManagedContainers } = await import(moduleUrl);
  if (typeof DockerSandbox?.create !== 'function') {
    return skip(log, `${moduleUrl} does not export DockerSandbox (build the package first: pnpm --filter @agentbench/sandbox build)`);
  }
  try {
    await docker.ping();
  } catch (error) {
    return skip(log, `Docker engine not reachable (${error.code ?? error.message})`);
  }
  try {
    await docker.getImage(image).inspect();
  } catch {
    return skip(log, `image ${image} missing (docker/py-runner/build-offline.sh builds it)`);
  }

  const runId = `bench-${process.pid}-${Date.now().toString(36)}`;
  const labels = { runId, taskId: 'bench' };
  const figures = { runs, image };
  let sandbox;
  try {
    log(`sandbox benchmark: ${runs} runs of \`true\` per path, image ${image}`);
    figures.hostSpawn = summary(await timeEach(runs, () => spawnAndWait('true', [])));

    sandbox = await DockerSandbox.create({ image, labels });
    const container = docker.getContainer(sandbox.containerId);
    await timeEach(10, () => sandbox.exec(['true']));
    figures.sandboxExec = summary(await timeEach(runs, () => sandbox.exec(['true'])));
    figures.sandboxShellExec = summary(await timeEach(Math.min(runs, 100), () => sandbox.exec('true')));
    await timeEach(3, () => rawEngineExec(docker, container));
    figures.rawEngineExec = summary(await timeEach(runs, () => rawEngineExec(docker, container)));
    await timeEach(3, () => spawnAndWait('docker', ['exec', sandbox.containerId, 'true']));
    figures.dockerCliExec = summary(await timeEach(runs, () => spawnAndWait('docker', ['exec', sandbox.containerId, 'true'])));
    figures.throughputOneCaller = await throughput(sandbox, 1, runs);
    figures.throughputEightCallers = await throughput(sandbox, 8, runs * 2);
    await sandbox.dispose();
    sandbox = undefined;

    const creates = [];
    const disposals = [];
    for (let index = 0; index < sized(10, 1); index++) {
      let created;
      creates.push(...(await timeEach(1, async () => (created = await DockerSandbox.create({ image, labels })))));
      disposals.push(...(await timeEach(1, () => created.dispose())));
    }
    figures.sandboxCreate = summary(creates);
    figures.sandboxDispose = summary(disposals);
    // As in a suite: the pool starts the next holder while an attempt runs (warm() waits for it here).
    const pool = new NetworkHolderPool({ docker, labels });
    try {
      const warmCreates = [];
      for (let index = 0; index < sized(10, 1); index++) {
        await pool.warm(image);
        let created;
        warmCreates.push(...(await timeEach(1, async () => (created = await DockerSandbox.create({ image, labels }, { networkHolders: pool })))));
        await created.dispose();
      }
      figures.sandboxCreateWarm = summary(warmCreates);
    } finally {
      await pool.dispose();
    }
    // A snapshot's sandbox without network (the verdict's) gets no network from the engine at all;
    // the baseline is the same image started as any networkless sandbox (on `none`), alternated.
    const snapshotSource = await DockerSandbox.create({ image, labels });
    const snapshot = await snapshotSource.snapshot();
    await snapshotSource.dispose();
    try {
      const onNone = { ms: [], cpuSeconds: [] };
      const engineNetworkless = { ms: [], cpuSeconds: [] };
      for (let index = 0; index < sized(10, 1); index++) {
        for (const [into, start] of [[onNone, () => DockerSandbox.create({ image: snapshot.image, labels })], [engineNetworkless, () => snapshot.createSandbox({ labels })]]) {
          const cpuBefore = machineBusySeconds();
          const started = performance.now();
          await (await start()).dispose();
          into.ms.push(performance.now() - started);
          into.cpuSeconds.push(machineBusySeconds() - cpuBefore);
        }
      }
      figures.snapshotOnNone = { ...summary(onNone.ms), cpuSeconds: percentile(onNone.cpuSeconds, 50) };
      figures.snapshotEngineNetworkless = { ...summary(engineNetworkless.ms), cpuSeconds: percentile(engineNetworkless.cpuSeconds, 50) };
    } finally {
      await snapshot.dispose();
    }
    const { starts: rawStarts, lifecycles } = await measureEngineFloor({ docker, image, runId, runs: sized(10, 1), taskId: 'bench-raw' });
    figures.rawContainerStart = summary(rawStarts);
    figures.rawContainerLifecycle = summary(lifecycles);

    // bwrap: our BwrapSandbox against a bare bwrap spawn over the same rootfs.
    const availability = await isBwrapAvailable();
    if (availability.isAvailable) {
      const rootfs = await ensureRootfs({ image, docker });
      const bareArgs = ['--ro-bind', rootfs, '/', '--unshare-all', '--die-with-parent', '--new-session', '--proc', '/proc', '--dev', '/dev', '--', '/bin/true'];
      await timeEach(3, () => spawnAndWait(availability.path, bareArgs));
      figures.bareBwrap = summary(await timeEach(runs, () => spawnAndWait(availability.path, bareArgs)));
      const bwrapSandbox = await BwrapSandbox.create({ rootfs });
      try {
        await timeEach(3, () => bwrapSandbox.exec(['true']));
        figures.bwrapExec = summary(await timeEach(runs, () => bwrapSandbox.exec(['true'])));
      } finally {
        await bwrapSandbox.dispose();
      }
      // The path a rootfs without python3 takes: one bwrap per command.
      const perCommand = await BwrapSandbox.create({ rootfs }, { shouldUseExecutor: false });
      try {
        await timeEach(3, () => perCommand.exec(['true']));
        figures.bwrapPerCommandExec = summary(await timeEach(Math.min(runs, 100), () => perCommand.exec(['true'])));
      } finally {
        await perCommand.dispose();
      }
    } else {
      log(`bwrap part skipped: ${availability.reason}`);
    }
  } finally {
    await sandbox?.dispose().catch(() => undefined);
    const leftovers = await removeManagedContainers({ runId }, { docker }).catch(() => ({ removed: [] }));
    if (leftovers.removed.length > 0) log(`removed ${leftovers.removed.length} leftover container(s)`);
  }

  const verdict = (isPass) => (isPass ? 'PASS' : 'FAIL');
  const rows = [
    ['host spawn `true` (baseline)', figures.hostSpawn, '', ''],
    ['DockerSandbox exec ["true"] (executor)', figures.sandboxExec, `median ≤ ${targets.medianMs} ms`, verdict(figures.sandboxExec.median <= targets.medianMs)],
    ['DockerSandbox exec "true" (via /bin/sh)', figures.sandboxShellExec, '', ''],
    ['raw Engine API exec (dockerode)', figures.rawEngineExec, '', ''],
    ['`docker exec` CLI', figures.dockerCliExec, '', ''],
    ['DockerSandbox.create (ready for commands)', figures.sandboxCreate, `median ≤ ${targets.startMs} ms`, verdict(figures.sandboxCreate.median <= targets.startMs)],
    ['  same, joining a started network holder', figures.sandboxCreateWarm, `median ≤ ${targets.startMs} ms`, verdict(figures.sandboxCreateWarm.median <= targets.startMs)],
    ['DockerSandbox.dispose (container removed)', figures.sandboxDispose, '', ''],
    [`snapshot's sandbox create+dispose, on none`, figures.snapshotOnNone, `${figures.snapshotOnNone.cpuSeconds.toFixed(2)} CPU-s`, ''],
    [`  same, no network from the engine`, figures.snapshotEngineNetworkless, `${figures.snapshotEngineNetworkless.cpuSeconds.toFixed(2)} CPU-s`, ''],
    ['raw container create+start (engine floor)', figures.rawContainerStart, '', ''],
    ['raw container create+start+remove', figures.rawContainerLifecycle, '', ''],
  ];
  if (figures.bwrapExec) {
    rows.push(['bare bwrap spawn `true` (baseline)', figures.bareBwrap, '', '']);
    rows.push(['BwrapSandbox exec ["true"] (executor)', figures.bwrapExec, `median ≤ ${targets.bwrapMedianMs} ms`, verdict(figures.bwrapExec.median <= targets.bwrapMedianMs)]);
    rows.push(['  same, one bwrap per command (no python3)', figures.bwrapPerCommandExec, '', '']);
  }
  log('');
  log(`${'path'.padEnd(44)}${'median'.padStart(12)}${'p95'.padStart(12)}${'runs'.padStart(6)}  target`);
  for (const [name, figure, target, result] of rows) {
    log(`${name.padEnd(44)}${format(figure.median, 'ms').padStart(12)}${format(figure.p95, 'ms').padStart(12)}${String(figure.runs).padStart(6)}  ${target}${result ? `  ${result}` : ''}`);
  }
  const throughputRows = [
    ['throughput, 1 caller', figures.throughputOneCaller],
    ['throughput, 8 concurrent callers', figures.throughputEightCallers],
  ];
  for (const [name, value] of throughputRows) {
    log(`${name.padEnd(44)}${format(value, 'cmd/s').padStart(12)}${''.padStart(18)}  ≥ ${targets.commandsPerSecond} cmd/s  ${verdict(value >= targets.commandsPerSecond)}`);
  }
  log('');
  log(`speed-up over a raw engine exec: ${(figures.rawEngineExec.median / figures.sandboxExec.median).toFixed(1)}x (median)`);
  const ms = (name, figure, baselineName, baseline, target) => recordFigure('sandbox', { name, value: figure.median, unit: 'ms', baseline: { name: baselineName, value: baseline.median }, ...(target === undefined ? {} : { target }) });
  ms('DockerSandbox exec ["true"], median', figures.sandboxExec, 'raw Engine API exec', figures.rawEngineExec, `≤ ${targets.medianMs} ms`);
  ms('DockerSandbox.create, median', figures.sandboxCreate, 'raw container create+start', figures.rawContainerStart, `≤ ${targets.startMs} ms`);
  ms('DockerSandbox.create joining a started network holder, median', figures.sandboxCreateWarm, 'raw container create+start', figures.rawContainerStart, `≤ ${targets.startMs} ms`);
  ms("a snapshot's sandbox without network, create+dispose, median", figures.snapshotEngineNetworkless, 'the same on `none`', figures.snapshotOnNone);
  recordFigure('sandbox', { name: "a snapshot's sandbox without network, create+dispose, machine CPU, median", value: figures.snapshotEngineNetworkless.cpuSeconds, unit: 'CPU-s', baseline: { name: 'the same on `none`', value: figures.snapshotOnNone.cpuSeconds } });
  recordFigure('sandbox', { name: 'throughput, 8 concurrent callers', value: figures.throughputEightCallers, unit: 'cmd/s', baseline: { name: '1 caller', value: figures.throughputOneCaller }, target: `≥ ${targets.commandsPerSecond} cmd/s` });
  if (figures.bwrapExec) ms('BwrapSandbox exec ["true"], median', figures.bwrapExec, 'bare bwrap spawn', figures.bareBwrap, `≤ ${targets.bwrapMedianMs} ms`);
  return figures;
}

function skip(log, reason) {
  skipBench('sandbox', reason, 'AGENTBENCH_REQUIRE_DOCKER');
  return { skipped: reason };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runsFlag = process.argv.indexOf('--runs');
  const runs = runsFlag === -1 ? sized(200, 3) : Number(process.argv[runsFlag + 1]);
  runSandboxBench({ runs: Number.isInteger(runs) && runs > 0 ? runs : 200 }).then(
    () => process.exit(0),
    (error) => {
      console.error(`sandbox benchmark failed: ${error?.stack ?? error}`);
      process.exit(1);
    },
  );
}
