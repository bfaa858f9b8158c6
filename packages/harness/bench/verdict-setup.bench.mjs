#!/usr/bin/env node
// Benchmark of "setup once per attempt" (issue 26): CPU seconds per scripted agent attempt on the
// bundled toy task (real Docker, baseline skipped) when the verdict's sandbox starts from the
// attempt's post-setup snapshot, beside the same attempts in the same run with the snapshot
// hidden from the pipeline, so the verdict runs setup a second time (what every backend did before).
// CPU seconds: the containers' own (their cgroup's cpuacct, read just before each is removed)
// plus the harness process's and its reaped children's (git, the work tree copy). The engine's
// own work (the commit, image layers) is not in either. Reports; never gates on timings.
// --quick: one attempt of each: it runs, it measures nothing.
//
//   node packages/harness/bench/verdict-setup.bench.mjs [--quick]
//
// Imports the built packages (../dist/index.js): `pnpm bench` builds them first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerSandbox, listManagedContainers, removeManagedContainers } from '@agentbench/sandbox';
import { loadTask } from '@agentbench/schemas';
import { RepoCache, runAgentAttempt, SandboxCpuMeter } from '../dist/index.js';
import { isSkippedWithoutDocker, recordFigure, sized } from '../../../scripts/bench-figures.mjs';

const BENCH = 'verdict-setup';
if (isSkippedWithoutDocker(BENCH)) process.exit(0);
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
const REPEATS = sized(3, 1);
const CLOCK_TICKS = 100;

/** This process's CPU seconds and its reaped children's (utime, stime, cutime, cstime of /proc/self/stat). */
function harnessCpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / CLOCK_TICKS;
}

/** `factory` as a backend that cannot snapshot: the verdict sets up again, as before issue 26. */
function withoutSnapshot(factory) {
  return async (spec) => {
    const sandbox = await factory(spec);
    return new Proxy(sandbox, { get: (target, property) => (property === 'snapshot' ? undefined : Reflect.get(target, property, target)) });
  };
}

const scratch = mkdtempSync(path.join(tmpdir(), 'agentbench-verdict-setup-bench-'));
const runIds = [];
const figures = { snapshot: [], rerun: [] };
try {
  const task = await loadTask(path.join(repositoryRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml'));
  const cache = new RepoCache({ directory: path.join(scratch, 'cache') });
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    for (const mode of ['rerun', 'snapshot']) {
      // The meter a run's driver uses: every container's CPU (the verdict's from a snapshot too), read before it goes.
      const meter = new SandboxCpuMeter();
      const docker = meter.wrap((spec) => DockerSandbox.create(spec));
      const harnessBefore = harnessCpuSeconds();
      const started = performance.now();
      const { record } = await runAgentAttempt({ task, skipBaseline: true, cache, outDir: path.join(scratch, mode), createSandbox: mode === 'rerun' ? withoutSnapshot(docker) : docker });
      runIds.push(record.run_id);
      if (!record.result.passed || record.verdict_setup !== mode) throw new Error(`${mode} attempt: expected a pass with verdict_setup ${mode}, found ${JSON.stringify(record.result)} ${record.verdict_setup}`);
      figures[mode].push({ containers: meter.unread > 0 ? Number.NaN : meter.cpuSeconds, harness: harnessCpuSeconds() - harnessBefore, wall: (performance.now() - started) / 1000 });
    }
  }
  const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
  const of = (mode, key) => median(figures[mode].map((figure) => figure[key]));
  const total = (mode) => median(figures[mode].map((figure) => figure.containers + figure.harness));
  console.log(`toy_fail_pytest, scripted agent, ${REPEATS} attempts each, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log('verdict setup   containers CPU s   harness CPU s   total CPU s   wall s');
  for (const mode of ['rerun', 'snapshot']) {
    console.log(`${mode.padEnd(14)}  ${of(mode, 'containers').toFixed(2).padStart(16)}  ${of(mode, 'harness').toFixed(2).padStart(13)}  ${total(mode).toFixed(2).padStart(11)}  ${of(mode, 'wall').toFixed(1).padStart(6)}`);
  }
  recordFigure(BENCH, { name: 'CPU seconds per agent attempt, verdict from the snapshot (median)', value: total('snapshot'), unit: 's', baseline: { name: 'verdict sets up again', value: total('rerun') } });
  recordFigure(BENCH, { name: 'containers CPU seconds per agent attempt, verdict from the snapshot (median)', value: of('snapshot', 'containers'), unit: 's', baseline: { name: 'verdict sets up again', value: of('rerun', 'containers') } });
  recordFigure(BENCH, { name: 'wall seconds per agent attempt, verdict from the snapshot (median)', value: of('snapshot', 'wall'), unit: 's', baseline: { name: 'verdict sets up again', value: of('rerun', 'wall') } });
} finally {
  for (const runId of runIds) if ((await listManagedContainers({ runId })).length > 0) await removeManagedContainers({ runId });
  rmSync(scratch, { recursive: true, force: true });
}
