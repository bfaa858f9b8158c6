#!/usr/bin/env node
// `pnpm bench` part for the CLI (issue 17), against the built `ab` (run `pnpm build` first).
// Runs every input of the bad-input corpus (fixtures/bad-inputs/cases.yaml, the generated 50 MB files,
// FIFO, folder and /dev/zero included) through `ab validate` under `/usr/bin/time -v`, and prints each
// one's wall time and peak resident memory against the targets (under 2 s and 200 MB), next to two
// baselines measured in the same run: `node -e ''` (Node's own start) and `ab validate` of a valid task
// (the CLI's start). Then the largest inputs the limits still let through, generated here in the shapes
// that cost the YAML parser most (list items, `key: value` lines, a flow list of wrong values, alias
// copies, one long quoted value): they show what the limits bound.
// Reports and exits 0 whatever the timings (they vary by machine and load), 1 on an exception. --quick: the
// baselines, the first five inputs of the corpus and the first limit probe.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_ALIAS_EXPANSION, MAX_INPUT_FILE_BYTES, MAX_YAML_TOKENS, parseYamlSource } from '@agentbench/schemas';
import { generateBadInputs } from '../../../fixtures/bad-inputs/generate.mjs';
import { recordFigure, sized, skipBench } from '../../../scripts/bench-figures.mjs';

const TIME_TARGET_SECONDS = 2;
const MEMORY_TARGET_MB = 200;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = path.join(root, 'fixtures/bad-inputs');
const ab = path.join(root, 'apps/cli/dist/bin.js');
const time = '/usr/bin/time';

if (!existsSync(time)) {
  skipBench('bad-inputs', `${time} not found (GNU time: apt-get install -y time)`, 'AGENTBENCH_REQUIRE_TOOLS');
  process.exit(0);
}
if (!existsSync(ab)) {
  skipBench('bad-inputs', `${ab} not built (pnpm build)`, 'AGENTBENCH_REQUIRE_TOOLS');
  process.exit(0);
}

/** Runs a command under GNU time; wall seconds, peak RSS in MB and the exit code. */
function measure(command, args) {
  const result = spawnSync(time, ['-v', command, ...args], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(result.stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  const exit = /Exit status: (\d+)/.exec(result.stderr);
  const seconds = wall === null ? Number.NaN : Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  return { seconds, megabytes: rss === null ? Number.NaN : Number(rss[1]) / 1024, exitCode: exit === null ? result.status : Number(exit[1]), isKilled: result.signal !== null };
}

function row(name, figures, isTargeted = true) {
  const verdict = !isTargeted ? 'baseline' : figures.isKilled ? 'KILLED' : figures.seconds < TIME_TARGET_SECONDS && figures.megabytes < MEMORY_TARGET_MB ? 'PASS' : 'FAIL';
  return [name, String(figures.exitCode), figures.seconds.toFixed(2), figures.megabytes.toFixed(0), verdict];
}

const scratch = await mkdtemp(path.join(tmpdir(), 'bad-inputs-bench-'));
const rows = [];
try {
  const generated = await generateBadInputs(path.join(scratch, 'generated'));
  const table = parseYamlSource(await readFile(path.join(corpus, 'cases.yaml'), 'utf8'), 'cases.yaml').data;

  rows.push(row("node -e ''", measure(process.execPath, ['-e', '']), false));
  rows.push(row('ab validate (a valid task)', measure(process.execPath, [ab, 'validate', path.join(root, 'tasks/custom-dev/toy_fail_pytest/task.yaml')]), false));

  for (const entry of sized(table.cases, table.cases.slice(0, 5))) {
    const file = entry.generated === undefined ? path.join(corpus, entry.file) : generated[entry.generated];
    rows.push(row(entry.name, measure(process.execPath, [ab, 'validate', file])));
  }

  // The largest inputs the limits accept, in the shapes that cost the parser most: what "bounded" means.
  const task = (await readFile(path.join(corpus, 'tasks/wrong-type/task.yaml'), 'utf8')).replace('timeout_sec: soon', 'timeout_sec: 60');
  const spare = 200; // tokens of the task itself, and some margin
  const probes = [
    ['list items', Math.floor((MAX_YAML_TOKENS - spare) / 2), (count) => `${task}labels:\n${'  - x\n'.repeat(count)}`],
    ['key: value lines', Math.floor((MAX_YAML_TOKENS - spare) / 3), (count) => `${task}x-map:\n${Array.from({ length: count }, (_, index) => `  k${index}: v`).join('\n')}\n`],
    // The duplicate-key check over as many keys (linear; the YAML parser's own check was quadratic).
    ['keys, then a duplicate of the first', Math.floor((MAX_YAML_TOKENS - spare) / 3) - 1, (count) => `${task}x-map:\n${Array.from({ length: count }, (_, index) => `  k${index}: v`).join('\n')}\n  k0: again\n`],
    ['wrong items in a flow list', Math.floor((MAX_YAML_TOKENS - spare) / 2), (count) => `${task}labels: [${Array(count).fill('1').join(',')}]\n`],
    ['alias copies', Math.floor(MAX_ALIAS_EXPANSION / 1000) - 2, (count) => `${task}x-anchor: &a [${Array(999).fill('v').join(',')}]\nx-copies: [${Array(count).fill('*a').join(',')}]\n`],
    ['bytes of one quoted value', MAX_INPUT_FILE_BYTES - task.length - 64, (count) => `${task}labels:\n  - "${'y'.repeat(count)}"\n`],
  ];
  for (const [shape, count, make] of sized(probes, probes.slice(0, 1))) {
    const file = path.join(scratch, 'limits', shape.replaceAll(' ', '-').replace(':', ''), 'task.yaml');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, make(count));
    rows.push(row(`limit: ${count.toLocaleString('en-US')} ${shape}`, measure(process.execPath, [ab, 'validate', file])));
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

const header = ['input (ab validate)', 'exit', 'wall s', 'peak MB', `target < ${TIME_TARGET_SECONDS} s, < ${MEMORY_TARGET_MB} MB`];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column].length)));
const line = (cells) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
console.log(line(header));
for (const cells of rows) console.log(line(cells));
const failed = rows.filter((cells) => cells[4] === 'FAIL' || cells[4] === 'KILLED');
const targeted = rows.filter((cells) => cells[4] !== 'baseline');
const start = rows[1];
recordFigure('bad-inputs', { name: 'ab validate of a bad input, slowest', value: Math.max(...targeted.map((cells) => Number(cells[2]))), unit: 's', baseline: { name: 'ab validate of a valid task', value: Number(start[2]) }, target: `< ${TIME_TARGET_SECONDS} s` });
recordFigure('bad-inputs', { name: 'ab validate of a bad input, largest peak memory', value: Math.max(...targeted.map((cells) => Number(cells[3]))), unit: 'MB', baseline: { name: 'ab validate of a valid task', value: Number(start[3]) }, target: `< ${MEMORY_TARGET_MB} MB` });
console.log(`\n${rows.filter((cells) => cells[4] !== 'baseline').length} inputs, ${failed.length} over a target${failed.length > 0 ? `: ${failed.map((cells) => cells[0]).join(', ')}` : ''}`);
