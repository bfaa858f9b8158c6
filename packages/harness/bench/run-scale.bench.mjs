#!/usr/bin/env node
// Benchmark of `ab run` at scale on a generated suite of 100 tasks (copies of the custom-dev toy
// task toy_fail_pytest, distinct ids, the scripted agent, real Docker):
//   1. attempts per minute at -j 1, -j 4 and -j auto over the whole suite. A real attempt takes
//      ~5 s on a quiet 2-core machine (~30 s when it is loaded), so the three settings take about half
//      an hour quiet: RUN_SCALE_TASKS=N runs the real attempts over the first N tasks only (a quick
//      look). -j auto runs through the CLI (apps/cli/dist/bin.js), which also gives
//   2. the CLI's peak RSS (VmHWM polled from /proc/PID/status; target < 300 MB), beside the peak RSS of
//      `ab --version` (same run's baseline: the CLI doing nothing);
//   3. the scheduler's own overhead per attempt: runScheduled over 100 no-op items against a plain
//      loop over them (target < 5 ms per item), and a whole runAgentRun over the 100-task suite
//      with a no-op attempt (plan, run.json, attempts.jsonl appended and fsynced per try).
//   4. the efficiency figure of each run (run.json), -j auto's limits and knee (run.json `auto`), and where
//      the -j auto run's CPU went outside its sandboxes (cpu-split.mjs: engine daemons against their idle
//      rate, the run's shims and runc, the CLI's node process (its start included), its children).
// Reports, exits 0 whatever the timings (they vary by machine) and 1 on an exception. Leaves no
// container behind. --quick: real attempts over the first task only (as RUN_SCALE_TASKS=1), at -j 1 and -j auto
// (-j 4 of one task runs the same code as -j 1).
//
//   node packages/harness/bench/run-scale.bench.mjs [--quick]
//
// Imports the built packages: `pnpm --filter @agentbench/harness build` and `pnpm --filter @agentbench/cli build` first.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listManagedContainers } from '@agentbench/sandbox';
import { runScheduled } from '@agentbench/scheduler';
import { runAgentRun } from '../dist/index.js';
import { isQuick, isSkippedWithoutDocker, recordFigure, sized } from '../../../scripts/bench-figures.mjs';
import { engineIdleRate, startCpuSplit } from './cpu-split.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, '../../..');
const cliBin = path.join(repositoryRoot, 'apps/cli/dist/bin.js');
const SUITE_SIZE = 100;
const availableCores = availableParallelism();
const realTasks = Math.min(SUITE_SIZE, Number(process.env.RUN_SCALE_TASKS ?? sized(SUITE_SIZE, 1)));
const targets = { schedulerMsPerItem: 5, peakRssMb: 300 };

function row(cells, widths) {
  return cells.map((cell, index) => String(cell).padEnd(widths[index])).join('  ').trimEnd();
}

/** A suite of `count` copies of toy_fail_pytest under `<tasksDir>/<suite>/`. */
function generateSuite(tasksDir, suite, count) {
  const text = readFileSync(path.join(repositoryRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml'), 'utf8');
  const repository = path.join(repositoryRoot, 'fixtures/repos/toy_repo.git');
  for (let index = 0; index < count; index += 1) {
    const id = `scale_${String(index).padStart(3, '0')}`;
    mkdirSync(path.join(tasksDir, suite, id), { recursive: true });
    writeFileSync(
      path.join(tasksDir, suite, id, 'task.yaml'),
      text.replace('id: toy_fail_pytest', `id: ${id}`).replace('suite: custom-dev', `suite: ${suite}`).replace('url: ../../../fixtures/repos/toy_repo.git', `url: ${repository}`),
    );
  }
}

/** Runs the CLI and polls its peak RSS (VmHWM, kB); with `split`, where the CPU went (cpu-split.mjs). */
function runCliMeasured(args, { split = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cliBin, ...args], { cwd: repositoryRoot, stdio: ['ignore', 'ignore', 'ignore'] });
    const cpu = split ? startCpuSplit({ harnessPid: () => String(child.pid), ownerPids: () => [String(child.pid)] }) : undefined;
    let peakKb = 0;
    const poll = () => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match) peakKb = Math.max(peakKb, Number(match[1]));
      } catch {
        // Exited between polls.
      }
    };
    const timer = setInterval(poll, 50);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(timer);
      resolve({ code, seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, split: cpu?.stop() });
    });
    poll();
  });
}

async function realAttempts(concurrency, tasksDir, suite, root) {
  const suiteTasks = Array.from({ length: realTasks }, (_, index) => path.join(tasksDir, suite, `scale_${String(index).padStart(3, '0')}`, 'task.yaml'));
  const { loadTask } = await import('@agentbench/schemas');
  const tasks = await Promise.all(suiteTasks.map((file) => loadTask(file)));
  const started = performance.now();
  const run = await runAgentRun({ tasks, variant: 'scripted', concurrency, outDir: path.join(root, `j${concurrency}`), mirrors: [] });
  const seconds = (performance.now() - started) / 1000;
  const efficiency = JSON.parse(readFileSync(path.join(root, `j${concurrency}`, 'run.json'), 'utf8')).efficiency?.value ?? Number.NaN;
  return { seconds, done: run.progress.done, passed: run.progress.passed, perMinute: (run.progress.done / seconds) * 60, efficiency };
}

async function schedulerOverhead() {
  const items = Array.from({ length: SUITE_SIZE }, (_, index) => index);
  const work = async (item) => item * 2;
  // Warm both paths once.
  await runScheduled(items, { concurrency: 4 }, work);
  let loopMs = Number.POSITIVE_INFINITY;
  let scheduledMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round += 1) {
    let started = performance.now();
    for (const item of items) await work(item);
    loopMs = Math.min(loopMs, performance.now() - started);
    started = performance.now();
    await runScheduled(items, { concurrency: 4 }, work);
    scheduledMs = Math.min(scheduledMs, performance.now() - started);
  }
  return { loopMsPerItem: loopMs / SUITE_SIZE, scheduledMsPerItem: scheduledMs / SUITE_SIZE };
}

async function noOpRun(tasksDir, suite, root) {
  const started = performance.now();
  const run = await runAgentRun({
    suite,
    tasksDir,
    variant: 'scripted',
    concurrency: 4,
    outDir: path.join(root, 'noop'),
    runAttempt: async (input) => {
      const now = new Date().toISOString();
      return {
        schema_version: '0.1.0',
        run_id: `${input.attempt.attemptId}#${input.try}`,
        task_id: input.attempt.task.task.id,
        suite,
        timestamp_start: now,
        timestamp_end: now,
        duration_sec: 0,
        baseline_validation: { attempted: false, failed_as_expected: false },
        result: { passed: true, exit_code: 0, failure_reason: null },
        artifact_paths: {},
        limits: { timeout_sec: 60 },
      };
    },
  });
  const ms = performance.now() - started;
  return { attempts: run.progress.done, msPerAttempt: ms / Math.max(1, run.progress.done) };
}

if (isSkippedWithoutDocker('run-scale')) process.exit(0);
const root = mkdtempSync(path.join(tmpdir(), 'ab-run-scale-'));
try {
  execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
  const tasksDir = path.join(root, 'tasks');
  const suite = 'scale-suite';
  generateSuite(tasksDir, suite, SUITE_SIZE);
  console.log(`generated suite: ${SUITE_SIZE} tasks (copies of toy_fail_pytest); real attempts over the first ${realTasks} (RUN_SCALE_TASKS)`);

  const overhead = await schedulerOverhead();
  const noop = await noOpRun(tasksDir, suite, root);
  const j1 = await realAttempts(1, tasksDir, suite, root);
  const j4 = isQuick ? j1 : await realAttempts(4, tasksDir, suite, root);
  // -j auto through the CLI over the same subset: a suite folder of just those tasks.
  const subsetDir = path.join(root, 'subset-tasks');
  generateSuite(subsetDir, suite, realTasks);
  // The engine daemons are shared with every user of the engine: their rate with nothing of ours running is the split's baseline.
  const engineIdle = await engineIdleRate(isQuick ? 1000 : 5000);
  const auto = await runCliMeasured(['run', '--suite', suite, '--tasks', subsetDir, '--agent', 'scripted', '-j', 'auto', '--out', path.join(root, 'auto'), '--json'], { split: true });
  const autoRun = JSON.parse(readFileSync(path.join(root, 'auto', 'run.json'), 'utf8'));
  const idle = await runCliMeasured(['--version']);

  const widths = [46, 16, 18, 8];
  console.log(row(['figure', 'value', 'baseline (same run)', 'target'], widths));
  console.log(row([`attempts/min, -j 1 (${j1.done} attempts, ${j1.passed} passed)`, j1.perMinute.toFixed(2), '-', '-'], widths));
  console.log(row([`attempts/min, -j 4 (${j4.done} attempts)`, j4.perMinute.toFixed(2), `-j 1: ${j1.perMinute.toFixed(2)}`, '-'], widths));
  const autoDone = autoRun.counts?.total - (autoRun.counts?.skipped ?? 0);
  console.log(row([`attempts/min, -j auto via CLI (${autoDone} attempts)`, ((autoDone / auto.seconds) * 60).toFixed(2), `-j 1: ${j1.perMinute.toFixed(2)}`, '-'], widths));
  console.log(row(['scheduler ms per item (100 no-op items)', overhead.scheduledMsPerItem.toFixed(4), `loop: ${overhead.loopMsPerItem.toFixed(4)}`, `< ${targets.schedulerMsPerItem} ${overhead.scheduledMsPerItem - overhead.loopMsPerItem < targets.schedulerMsPerItem ? 'PASS' : 'FAIL'}`], widths));
  // Not the scheduler's figure: the whole run's bookkeeping per attempt (try folder, one fsynced append), beside a real attempt's tens of seconds.
  console.log(row([`runAgentRun ms per no-op attempt (${noop.attempts})`, noop.msPerAttempt.toFixed(2), `real attempt at -j 1: ${(60_000 / j1.perMinute).toFixed(0)}`, '-'], widths));
  const autoEfficiency = autoRun.efficiency?.value ?? Number.NaN;
  console.log(row(['efficiency, -j 1 / -j 4 / -j auto', [j1.efficiency, j4.efficiency, autoEfficiency].map((value) => `${(value * 100).toFixed(0)}%`).join(' / '), '-', '>= 80% at auto'], widths));
  console.log(`-j auto: limits ${JSON.stringify(autoRun.auto?.limits ?? [])} (seconds into the run, limit), knee ${autoRun.auto?.knee ?? 'not found'}, ended at ${autoRun.auto?.limit ?? '?'}`);
  // The throughput windows the knee was judged on: in flight, attempts per minute, share of the window some task waited for a CPU.
  for (const window of autoRun.auto?.windows ?? []) console.log(`  window to ${window.at_sec} s: ${window.running} in flight, ${window.per_minute}/min, CPU wait ${window.cpu_wait === null ? '?' : `${Math.round(window.cpu_wait * 100)} %`}`);
  // Where the -j auto run's CPU went: its sandboxes (cgroups, run.json), the engine, the harness.
  const split = auto.split;
  const sandboxSeconds = autoRun.efficiency?.cpu_seconds ?? Number.NaN;
  const engineExtra = split.engineDaemons - engineIdle * split.wallSeconds;
  const splitRows = [
    ['sandboxes (container cgroups)', sandboxSeconds],
    ['engine daemons (dockerd, containerd; all users)', split.engineDaemons],
    [`  of which over their idle rate (${engineIdle.toFixed(2)} cores)`, engineExtra],
    ['shims and runc of the run\'s containers', split.shims],
    ['shims and runc not attributed (container gone before its labels were read)', split.unattributed],
    ['the harness (the CLI\'s node process)', split.harness],
    ['the harness\'s children (git, …)', split.harnessChildren],
    ['the whole machine (every user)', split.machine],
  ];
  console.log(`\nCPU of the -j auto run (${split.wallSeconds.toFixed(1)} s wall, ${availableCores} cores: ${(split.wallSeconds * availableCores).toFixed(1)} core-seconds):`);
  for (const [name, seconds] of splitRows) console.log(row([name, `${seconds.toFixed(1)} s`, `${((seconds / (split.wallSeconds * availableCores)) * 100).toFixed(0)}% of the cores`], [66, 10, 22]));
  // Efficiency with no core idle: the share of the CPU the run's work kept busy that its sandboxes used.
  // The rest (engine, shims, harness, kernel outside the cgroups) is paid per attempt, so no
  // scheduling reaches beyond this; only less of that work does.
  const ceiling = sandboxSeconds / split.machine;
  console.log(`efficiency at most ${(ceiling * 100).toFixed(0)} % for this work (sandboxes ${sandboxSeconds.toFixed(1)} s of the machine's ${split.machine.toFixed(1)} busy CPU-s); reached ${(autoEfficiency * 100).toFixed(0)} %`);
  recordFigure('run-scale', { name: 'efficiency, -j auto via the CLI', value: autoEfficiency * 100, unit: '%', baseline: { name: '-j 1', value: j1.efficiency * 100 }, target: '≥ 80 %' });
  recordFigure('run-scale', { name: 'efficiency ceiling of the -j auto run: sandboxes\' CPU ÷ the machine\'s busy CPU', value: ceiling * 100, unit: '%', baseline: { name: 'reached', value: autoEfficiency * 100 } });
  recordFigure('run-scale', { name: 'CPU of the -j auto run outside its sandboxes: engine over idle + shims + harness + its children', value: engineExtra + split.shims + split.harness + split.harnessChildren, unit: 's', baseline: { name: 'sandboxes', value: sandboxSeconds } });
  recordFigure('run-scale', { name: 'attempts per minute, -j 4', value: j4.perMinute, unit: '1/min', baseline: { name: '-j 1', value: j1.perMinute } });
  recordFigure('run-scale', { name: 'attempts per minute, -j auto via the CLI', value: (autoDone / auto.seconds) * 60, unit: '1/min', baseline: { name: '-j 1', value: j1.perMinute } });
  recordFigure('run-scale', { name: 'scheduler time per item (100 no-op items)', value: overhead.scheduledMsPerItem, unit: 'ms', baseline: { name: 'plain loop', value: overhead.loopMsPerItem }, target: `< ${targets.schedulerMsPerItem} ms over the loop` });
  recordFigure('run-scale', { name: 'CLI peak RSS, -j auto run', value: auto.peakMb, unit: 'MB', baseline: { name: 'ab --version', value: idle.peakMb }, target: `< ${targets.peakRssMb} MB` });
  console.log(row(['CLI peak RSS MB (-j auto run)', auto.peakMb.toFixed(1), `ab --version: ${idle.peakMb.toFixed(1)}`, `< ${targets.peakRssMb} ${auto.peakMb < targets.peakRssMb ? 'PASS' : 'FAIL'}`], widths));
} finally {
  rmSync(root, { recursive: true, force: true });
  const left = (await listManagedContainers()).filter((container) => container.creatorPid === process.pid);
  if (left.length > 0) console.log(`containers left behind: ${left.map((container) => container.name).join(', ')}`);
}
