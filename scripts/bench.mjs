#!/usr/bin/env node
// `pnpm bench`: runs every package's benchmark in sequence against the built packages.
// Each benchmark prints its figures next to a baseline measured in the same run and the
// issue's targets; this script reports, it does not gate on timings (they vary by machine).
// A bench that throws fails the run.
//
//   pnpm bench [--quick] [--json FILE [--note TEXT]] [NAME...]
//
//   --quick      every bench once with tiny sizes: shows each still runs (`pnpm test` runs this), measures nothing
//   --json FILE  also writes every figure, with its same-run baseline and target, to FILE (one JSON document;
//                bench/baseline.json is one from a quiet machine, the "before" of a change's closing note)
//   --note TEXT  said in the JSON document's `note` (e.g. "a busy machine: load 20 on 2 cores")
//   NAME...      only the benches whose path contains one of the names
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const BENCHES = [
  'packages/sandbox/bench/sandbox.bench.mjs',
  'packages/sandbox/bench/gvisor.bench.mjs',
  'packages/sandbox/bench/pool.bench.mjs',
  'packages/tools/bench/tools.bench.mjs',
  'packages/cassette/bench/gateway.bench.mjs',
  'packages/cassette/bench/forwarder.bench.mjs',
  'packages/installed-agents/bench/mount.bench.mjs',
  'packages/evaluators/bench/scanners.bench.mjs',
  'packages/harness/bench/harness.bench.mjs',
  'packages/harness/bench/snapshots.bench.mjs',
  'packages/harness/bench/run-scale.bench.mjs',
  'packages/harness/bench/suite-pool.bench.mjs',
  'packages/harness/bench/test-report.bench.mjs',
  'packages/harness/bench/verdict-setup.bench.mjs',
  'packages/scenario-runner/bench/scenario.bench.mjs',
  'packages/report/bench/report-scale.bench.mjs',
  'apps/cli/bench/bad-inputs.bench.mjs',
  'apps/cli/bench/ab-process.bench.mjs',
];

/** The command line: `{ isQuick, jsonFile, only }`; throws on an unknown flag or a --json without a file. */
export function parseBenchArguments(argv) {
  const options = { isQuick: false, jsonFile: undefined, note: undefined, only: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--quick') options.isQuick = true;
    else if (argument === '--json') {
      const file = argv[index + 1];
      if (file === undefined || file.startsWith('--')) throw new Error('--json: expected a file to write the figures to, e.g. --json bench/baseline.json');
      options.jsonFile = file;
      index += 1;
    } else if (argument === '--note') {
      const note = argv[index + 1];
      if (note === undefined) throw new Error('--note: expected a text, e.g. --note "load 20 on 2 cores"');
      options.note = note;
      index += 1;
    } else if (argument.startsWith('--')) throw new Error(`unknown option ${argument} (expected --quick, --json FILE, --note TEXT or bench names)`);
    else options.only.push(argument);
  }
  return options;
}

/** The figure lines a bench wrote (see recordFigure in bench-figures.mjs) as `{ figures, skipped }`. */
export function readFigureLines(text) {
  const figures = [];
  let skipped;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line);
    if (entry.skipped !== undefined) skipped = entry.skipped;
    else figures.push(entry.figure);
  }
  return { figures, skipped };
}

function gitCommit() {
  const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

function main(argv) {
  const options = parseBenchArguments(argv);
  const scratch = mkdtempSync(path.join(tmpdir(), 'agentbench-bench-'));
  const document = { schema_version: 1, commit: gitCommit(), started_at: new Date().toISOString(), quick: options.isQuick, ...(options.note === undefined ? {} : { note: options.note }), machine: { cores: availableParallelism(), load_average: loadavg() }, benches: [] };
  let failures = 0;
  try {
    for (const relative of BENCHES) {
      if (options.only.length > 0 && !options.only.some((name) => relative.includes(name))) continue;
      const file = path.join(root, relative);
      if (!existsSync(file)) {
        console.log(`=== ${relative} FAILED: not found (moved? update BENCHES in scripts/bench.mjs)`);
        failures += 1;
        continue;
      }
      console.log(`\n=== ${relative}${options.isQuick ? ' (--quick)' : ''}`);
      const figuresFile = path.join(scratch, `${path.basename(relative)}.jsonl`);
      writeFileSync(figuresFile, '');
      const started = performance.now();
      const result = spawnSync(process.execPath, [file, ...(options.isQuick ? ['--quick'] : [])], { stdio: 'inherit', cwd: root, env: { ...process.env, AGENTBENCH_BENCH_FIGURES: figuresFile } });
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      const { figures, skipped } = readFigureLines(readFileSync(figuresFile, 'utf8'));
      const status = result.status !== 0 ? 'failed' : skipped !== undefined ? 'skipped' : 'ok';
      if (status === 'failed') {
        failures += 1;
        console.log(`=== ${relative} FAILED (exit ${result.status ?? result.signal})`);
      } else if (status === 'ok' && figures.length === 0) {
        failures += 1;
        console.log(`=== ${relative} FAILED: it recorded no figure`);
      }
      if (options.isQuick) console.log(`=== ${relative}: ${seconds} s`);
      document.benches.push({ bench: relative, status, seconds, ...(skipped === undefined ? {} : { skipped }), figures });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (options.jsonFile !== undefined) {
    // The load at the end too: a busy machine's figures are read with it.
    document.machine.load_average_at_end = loadavg();
    // Written whole or not at all: a temporary file beside it, renamed.
    const target = path.resolve(options.jsonFile);
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(document, null, 2)}\n`);
    renameSync(temporary, target);
    console.log(`\nfigures written to ${options.jsonFile}`);
  }
  const total = document.benches.reduce((sum, bench) => sum + bench.seconds, 0);
  console.log(`\nbench${options.isQuick ? ' --quick' : ''}: ${document.benches.length} benches in ${total.toFixed(0)} s, ${failures} failed`);
  return failures > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`bench: ${error.message}`);
    process.exitCode = 2;
  }
}
