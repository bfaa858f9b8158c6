#!/usr/bin/env node
// Benchmark of WorkTreeSnapshots (host git over a sandbox-written work tree, with the harness's
// own git directory) on the toy repository, beside a plain `git status` in the same run.
//
//   node packages/harness/bench/snapshots.bench.mjs [--quick]
//
// Imports the built package (../dist/index.js): `pnpm bench` builds it first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkTreeSnapshots } from '../dist/index.js';
import { recordFigure, sized } from '../../../scripts/bench-figures.mjs';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
const source = path.join(repositoryRoot, 'fixtures/repos/toy_repo.git');
const scratch = mkdtempSync(path.join(tmpdir(), 'agentbench-snapshots-bench-'));
const RUNS = sized(15, 1);
try {
  const workTree = path.join(scratch, 'workspace', 'repo');
  execFileSync('git', ['clone', '-q', source, workTree]);
  const commitSha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: workTree, encoding: 'utf8' }).trim();
  const times = { create: [], snapshot: [], status: [] };
  for (let run = 0; run < RUNS; run += 1) {
    let started = performance.now();
    const snapshots = await WorkTreeSnapshots.create({ gitDir: path.join(scratch, `git-${run}`), sourceGitDir: source, commitSha, workTree });
    times.create.push(performance.now() - started);
    started = performance.now();
    await snapshots.snapshot();
    times.snapshot.push(performance.now() - started);
    started = performance.now();
    execFileSync('git', ['status', '--porcelain'], { cwd: workTree });
    times.status.push(performance.now() - started);
    await snapshots.remove();
  }
  const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
  console.log(`toy repository, ${RUNS} runs, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log(`WorkTreeSnapshots.create              ${median(times.create).toFixed(1)} ms`);
  console.log(`WorkTreeSnapshots.snapshot            ${median(times.snapshot).toFixed(1)} ms`);
  console.log(`plain git status in the tree (baseline) ${median(times.status).toFixed(1)} ms`);
  for (const step of ['create', 'snapshot']) recordFigure('snapshots', { name: `WorkTreeSnapshots.${step}, median`, value: median(times[step]), unit: 'ms', baseline: { name: 'plain git status in the tree', value: median(times.status) } });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
