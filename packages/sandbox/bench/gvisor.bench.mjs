#!/usr/bin/env node
// What gVisor's extra isolation costs: the same figures under runc (the engine's default) and
// under runsc (gVisor, registered by `scripts/setup.sh --with-gvisor`) in the same run:
//   - exec median: N `true` commands through one sandbox's executor;
//   - create + first command: DockerSandbox.create, one `true`, timed together (dispose apart);
//   - setup move: a runsc sandbox made with network (setup runs under runc), then setNetwork(false),
//     which commits it and moves it to a gVisor container;
//   - one custom-dev attempt: `ab run-agent --variant scripted` on tasks/custom-dev/toy_fail_pytest
//     (baseline, agent, fresh verdict sandbox), with and without `--runtime runsc`.
// Reports and exits 0 whatever the timings (they vary by machine), 1 on an exception; without runsc
// registered it says why and skips (fails under AGENTBENCH_REQUIRE_DOCKER=1, as CI registers it).
// Leaves no container or image behind.
//
//   node packages/sandbox/bench/gvisor.bench.mjs [--runs 100] [--starts 5] [--quick]
//
// Imports the built packages (../dist/index.js, apps/cli/dist/bin.js).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Dockerode from 'dockerode';
import { wholeNumberArgument as argument, isQuick, percentile, recordFigure, sized, skipBench } from '../../../scripts/bench-figures.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const image = process.env.AGENTBENCH_RUNNER_IMAGE ?? 'agentbench/py-runner:0.1.0';
const attemptTask = 'tasks/custom-dev/toy_fail_pytest/task.yaml';

async function timeEach(count, action) {
  const durations = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await action();
    durations.push(performance.now() - started);
  }
  return durations;
}

async function execMedian(DockerSandbox, runtime, runs) {
  const sandbox = await DockerSandbox.create({ image, ...runtime, labels: { runId: 'bench-gvisor' } });
  try {
    await sandbox.exec(['true']);
    const durations = await timeEach(runs, async () => {
      const result = await sandbox.exec(['true']);
      if (result.exitCode !== 0) throw new Error(`true exited with ${result.exitCode}`);
    });
    return percentile(durations, 0.5);
  } finally {
    await sandbox.dispose();
  }
}

async function createAndFirstCommand(DockerSandbox, runtime, starts) {
  const durations = [];
  for (let index = 0; index < starts; index++) {
    const started = performance.now();
    const sandbox = await DockerSandbox.create({ image, ...runtime, labels: { runId: 'bench-gvisor' } });
    try {
      await sandbox.exec(['true']);
      durations.push(performance.now() - started);
    } finally {
      await sandbox.dispose();
    }
  }
  return percentile(durations, 0.5);
}

async function setupMove(DockerSandbox, starts) {
  const durations = [];
  for (let index = 0; index < starts; index++) {
    const sandbox = await DockerSandbox.create({ image, runtime: 'runsc', hasNetwork: true, labels: { runId: 'bench-gvisor' } });
    try {
      await sandbox.exec('echo installed > installed.txt');
      const started = performance.now();
      await sandbox.setNetwork(false);
      await sandbox.exec(['true']);
      durations.push(performance.now() - started);
    } finally {
      await sandbox.dispose();
    }
  }
  return percentile(durations, 0.5);
}

function runAttempt(extraArgs, outDir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const args = [path.join(root, 'apps/cli/dist/bin.js'), 'run-agent', '--task', path.join(root, attemptTask), '--variant', 'scripted', '--out', outDir, '--json', ...extraArgs];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', () => {
      const elapsed = performance.now() - started;
      try {
        const { record } = JSON.parse(stdout);
        resolve({ elapsed, passed: record.result.passed, failureReason: record.result.failure_reason });
      } catch {
        reject(new Error(`ab run-agent ${extraArgs.join(' ')} printed no record: ${stderr.slice(-400)}`));
      }
    });
  });
}

const ms = (value) => (Number.isNaN(value) ? '-' : `${value.toFixed(value < 10 ? 2 : 0)} ms`);
const ratio = (value, baseline) => `${(value / baseline).toFixed(1)}x`;

export async function runGvisorBench({ log = console.log, runs = 100, starts = 5 } = {}) {
  const sandboxModule = new URL('../dist/index.js', import.meta.url).href;
  const { DockerSandbox, checkGvisorRegistered, removeManagedContainers } = await import(sandboxModule);
  const docker = new Dockerode();
  const gvisor = await checkGvisorRegistered(docker);
  if (!gvisor.isRegistered) {
    skipBench('gvisor', gvisor.reason, 'AGENTBENCH_REQUIRE_DOCKER');
    return undefined;
  }
  const out = await mkdtemp(path.join(tmpdir(), 'agentbench-gvisor-bench-'));
  try {
    log(`gvisor benchmark: image ${image}; ${runs} execs, ${starts} starts per runtime; attempt: ab run-agent --variant scripted ${attemptTask}`);
    const figures = {
      runc: { execMs: await execMedian(DockerSandbox, {}, runs), createMs: await createAndFirstCommand(DockerSandbox, {}, starts) },
      runsc: { execMs: await execMedian(DockerSandbox, { runtime: 'runsc' }, runs), createMs: await createAndFirstCommand(DockerSandbox, { runtime: 'runsc' }, starts) },
    };
    figures.runsc.moveMs = await setupMove(DockerSandbox, starts);
    const runcAttempt = await runAttempt([], path.join(out, 'runc'));
    // --quick: the runc attempt only (the bench's code path is the same; the runsc one costs a minute on a loaded machine).
    const runscAttempt = isQuick ? undefined : await runAttempt(['--runtime', 'runsc'], path.join(out, 'runsc'));
    figures.runc.attemptMs = runcAttempt.elapsed;
    figures.runsc.attemptMs = runscAttempt?.elapsed ?? Number.NaN;
    const outcome = (attempt) => (attempt === undefined ? 'not run' : attempt.passed ? 'passed' : `failed ${attempt.failureReason}`);
    log('');
    log('figure                                  runc (baseline)   runsc (gVisor)   cost');
    log(`exec median (\`true\`, ${String(runs).padEnd(3)} runs)          ${ms(figures.runc.execMs).padEnd(17)} ${ms(figures.runsc.execMs).padEnd(16)} ${ratio(figures.runsc.execMs, figures.runc.execMs)}`);
    log(`create + first command (median of ${starts})   ${ms(figures.runc.createMs).padEnd(17)} ${ms(figures.runsc.createMs).padEnd(16)} ${ratio(figures.runsc.createMs, figures.runc.createMs)}`);
    log(`setup move: setNetwork(false) + 1 cmd    -                 ${ms(figures.runsc.moveMs).padEnd(16)} (commit + gVisor start)`);
    log(`custom-dev attempt (run-agent scripted)  ${`${ms(figures.runc.attemptMs)} ${outcome(runcAttempt)}`.padEnd(17)} ${`${ms(figures.runsc.attemptMs)} ${outcome(runscAttempt)}`.padEnd(16)} ${ratio(figures.runsc.attemptMs, figures.runc.attemptMs)}`);
    for (const [name, key] of [['exec median', 'execMs'], ['create + first command, median', 'createMs'], ['custom-dev attempt (run-agent scripted)', 'attemptMs']]) {
      recordFigure('gvisor', { name: `${name} under runsc`, value: figures.runsc[key], unit: 'ms', baseline: { name: 'runc', value: figures.runc[key] } });
    }
    return figures;
  } finally {
    await rm(out, { recursive: true, force: true });
    await removeManagedContainers({ runId: 'bench-gvisor' }, { docker }).catch(() => undefined);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runGvisorBench({ runs: argument('runs', sized(100, 3)), starts: argument('starts', sized(5, 1)) });
}
