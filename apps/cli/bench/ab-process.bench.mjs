#!/usr/bin/env node
// `pnpm bench` part for the `ab` process's own CPU (issue 26 item 3: the CPU an attempt costs outside its
// sandboxes), against the built `ab` (run `pnpm build` first):
//   1. start-up: CPU seconds (user + system, /usr/bin/time) of `ab --version`, `ab --help` and
//      `ab list-tasks custom-dev`, beside `node -e ''` (Node's own start, the same-run baseline);
//   2. a real `ab run -j auto` of N copies of toy_fail_pytest with the scripted agent (RUN_TASKS, default
//      4): the CPU seconds of the `ab` process per attempt (its own, children apart; sampled from /proc as
//      cpu-split.mjs does) beside its start-up, and the Engine API requests per attempt, by kind, counted
//      on a socket that forwards to the engine (engine-call-count.mjs), beside the containers created.
// Reports, exits 0 whatever the figures, 1 on an exception; leaves no container behind (ab run removes its
// own). --quick: one start-up of each, no real run (the run-scale and harness benches run attempts).
//
//   node apps/cli/bench/ab-process.bench.mjs [--quick]
//
// AGENTBENCH_AB_BIN may point at another build's dist/bin.js (a same-run before and after).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isQuick, isSkippedWithoutDocker, percentile, recordFigure, sized, skipBench } from '../../../scripts/bench-figures.mjs';
import { processCpu } from '../../../packages/harness/bench/cpu-split.mjs';
import { startEngineCallCount } from './engine-call-count.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ab = process.env.AGENTBENCH_AB_BIN ?? path.join(root, 'apps/cli/dist/bin.js');
const time = '/usr/bin/time';
const runs = sized(5, 1);
const runTasks = Number(process.env.RUN_TASKS ?? 4);

if (!existsSync(time)) {
  skipBench('ab-process', `${time} not found (GNU time: apt-get install -y time)`, 'AGENTBENCH_REQUIRE_TOOLS');
  process.exit(0);
}
if (!existsSync(ab)) {
  skipBench('ab-process', `${ab} not built (pnpm build)`, 'AGENTBENCH_REQUIRE_TOOLS');
  process.exit(0);
}

/** Median CPU seconds (user + system) of `node args` over `runs` runs. */
function startupCpu(args) {
  const seconds = [];
  for (let index = 0; index < runs; index += 1) {
    const result = spawnSync(time, ['-f', '%U %S', process.execPath, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    const [user, system] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
    seconds.push(user + system);
  }
  return percentile(seconds, 0.5);
}

const node = startupCpu(['-e', '']);
console.log(`ab start-up CPU seconds (median of ${runs}; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}):`);
console.log(`  node -e '' (baseline)          ${node.toFixed(2)} s`);
const startups = {};
for (const args of [['--version'], ['--help'], ['list-tasks', 'custom-dev']]) {
  const seconds = startupCpu([ab, ...args]);
  startups[args[0]] = seconds;
  console.log(`  ab ${args.join(' ').padEnd(27)} ${seconds.toFixed(2)} s`);
  recordFigure('ab-process', { name: `CPU seconds of ab ${args.join(' ')}`, value: seconds, unit: 's', baseline: { name: "node -e ''", value: node } });
}

if (isQuick) {
  console.log('--quick: no real run');
  process.exit(0);
}
if (isSkippedWithoutDocker('ab-process')) process.exit(0);

/** N copies of toy_fail_pytest with distinct ids, as run-scale.bench.mjs builds its suite. */
function writeSuite(tasksDir, count) {
  const text = readFileSync(path.join(root, 'tasks/custom-dev/toy_fail_pytest/task.yaml'), 'utf8');
  for (let index = 0; index < count; index += 1) {
    const id = `cpu_${String(index).padStart(3, '0')}`;
    mkdirSync(path.join(tasksDir, 'cpu-suite', id), { recursive: true });
    writeFileSync(
      path.join(tasksDir, 'cpu-suite', id, 'task.yaml'),
      text.replace('id: toy_fail_pytest', `id: ${id}`).replace('suite: custom-dev', 'suite: cpu-suite').replace('url: ../../../fixtures/repos/toy_repo.git', `url: ${path.join(root, 'fixtures/repos/toy_repo.git')}`),
    );
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'ab-process-bench-'));
try {
  spawnSync(process.execPath, [path.join(root, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
  writeSuite(path.join(work, 'tasks'), runTasks);
  const counter = await startEngineCallCount({ socketPath: path.join(work, 'engine.sock') });
  const args = [ab, 'run', '--suite', 'cpu-suite', '--tasks', path.join(work, 'tasks'), '--agent', 'scripted', '-j', 'auto', '--out', path.join(work, 'out'), '--json'];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DOCKER_HOST: `unix://${path.join(work, 'engine.sock')}` } });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  // The process's own CPU, read until it is gone (a process that ends between two reads loses at most 100 ms).
  let cpu = { own: 0, children: 0 };
  const timer = setInterval(() => (cpu = processCpu(child.pid) ?? cpu), 100);
  const code = await new Promise((resolve, reject) => child.once('error', reject).once('exit', resolve));
  clearInterval(timer);
  const counts = await counter.stop();
  if (code !== 0) throw new Error(`ab run exited ${code}: ${stderr.slice(-2000)}`);
  const calls = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const created = counts.get('POST /containers/create') ?? 0;
  console.log(`\nab run -j auto, ${runTasks} scripted attempts of toy_fail_pytest (load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}):`);
  console.log(`  CPU seconds of the ab process per attempt   ${(cpu.own / runTasks).toFixed(2)} s (its children, git…: ${(cpu.children / runTasks).toFixed(2)} s; its start-up: ~${startups['--version'].toFixed(2)} s once)`);
  console.log(`  Engine API requests per attempt             ${(calls / runTasks).toFixed(1)} (${calls} in all, ${created} containers created)`);
  for (const [kind, count] of counts) console.log(`    ${String(count).padStart(4)}  ${kind}`);
  recordFigure('ab-process', { name: 'CPU seconds of the ab process per scripted attempt (ab run -j auto)', value: cpu.own / runTasks, unit: 's', baseline: { name: 'ab --version', value: startups['--version'] } });
  recordFigure('ab-process', { name: 'Engine API requests per scripted attempt (ab run -j auto)', value: calls / runTasks, unit: 'requests', baseline: { name: 'containers created per attempt', value: created / runTasks } });
} finally {
  rmSync(work, { recursive: true, force: true });
}
