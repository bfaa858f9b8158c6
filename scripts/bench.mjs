#!/usr/bin/env node
// `pnpm bench`: runs every package's benchmark in sequence against the built packages.
// Each benchmark prints its figures next to a baseline measured in the same run and the
// issue's targets; this script reports, it does not gate (timings vary by machine).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const benches = [
  'packages/sandbox/bench/sandbox.bench.mjs',
  'packages/sandbox/bench/gvisor.bench.mjs',
  'packages/sandbox/bench/pool.bench.mjs',
  'packages/tools/bench/tools.bench.mjs',
  'packages/harness/bench/harness.bench.mjs',
  'packages/harness/bench/snapshots.bench.mjs',
  'packages/harness/bench/run-scale.bench.mjs',
  'packages/harness/bench/suite-pool.bench.mjs',
  'packages/harness/bench/test-report.bench.mjs',
  'packages/scenario-runner/bench/scenario.bench.mjs',
  'packages/report/bench/report-scale.bench.mjs',
  'apps/cli/bench/bad-inputs.bench.mjs',
];

const only = process.argv.slice(2);
let failures = 0;
for (const relative of benches) {
  if (only.length > 0 && !only.some((name) => relative.includes(name))) continue;
  const file = path.join(root, relative);
  if (!existsSync(file)) {
    console.log(`skip ${relative}: not found`);
    continue;
  }
  console.log(`\n=== ${relative}`);
  const result = spawnSync(process.execPath, [file], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) failures += 1;
}
process.exitCode = failures > 0 ? 1 : 0;
