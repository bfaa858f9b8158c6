#!/usr/bin/env node
// Reads a test run's output (vitest's "Tests  N passed | M failed" lines and node's test
// runner "# pass N" / "# fail M") and prints one closing line: "tests: N passed, M failed".
//
//   node scripts/count-tests.mjs [--floors scripts/test-floors.json] LOG
//
// With --floors it also counts per scope and exits 1 when a scope ran fewer tests than its floor, or
// ran tests without having a floor: a test run that shrinks (tests skipped by a missing fixture, an
// `it.each` over an empty list, a test file no longer matched) fails instead of passing quietly.
// A scope is turbo's task id, from the prefix turbo puts on each line ("@agentbench/sandbox:test:unit: "
// → "@agentbench/sandbox#test:unit"); lines without one are the root's `pnpm -s test:scripts`
// ("//#test:scripts"). Tests that ran are those passed or failed; skipped ones do not count.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT_SCOPE = '//#test:scripts';

/** The tests of each scope in a run's output: `Map<scope, { passed, failed, skipped }>`. */
export function countTests(text) {
  const scopes = new Map();
  const add = (scope, kind, count) => {
    const counts = scopes.get(scope) ?? { passed: 0, failed: 0, skipped: 0 };
    counts[kind] += count;
    scopes.set(scope, counts);
  };
  for (const raw of text.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
    const prefix = /^(\S+):(test:[\w-]+): /.exec(raw);
    const scope = prefix === null ? ROOT_SCOPE : `${prefix[1]}#${prefix[2]}`;
    const line = prefix === null ? raw : raw.slice(prefix[0].length);
    const vitest = /^\s*Tests\s+(.*)\(\d+\)\s*$/.exec(line);
    if (vitest) {
      for (const kind of ['passed', 'failed', 'skipped']) add(scope, kind, Number(new RegExp(`(\\d+) ${kind}`).exec(vitest[1])?.[1] ?? 0));
      continue;
    }
    const node = /^# (pass|fail|skipped) (\d+)\s*$/.exec(line);
    if (node) add(scope, { pass: 'passed', fail: 'failed', skipped: 'skipped' }[node[1]], Number(node[2]));
  }
  return scopes;
}

/** The problems of a run against its floors (`{ scope: minimum }`): one line each, empty when none. */
export function floorProblems(scopes, floors) {
  const problems = [];
  for (const [scope, floor] of Object.entries(floors)) {
    const counts = scopes.get(scope);
    const ran = counts === undefined ? 0 : counts.passed + counts.failed;
    if (ran < floor) problems.push(`${scope}: ran ${ran} tests, fewer than its floor of ${floor}${counts === undefined ? ' (no test count found in the output)' : ''}`);
  }
  for (const [scope, counts] of scopes) {
    if (!(scope in floors) && counts.passed + counts.failed > 0) problems.push(`${scope}: ran ${counts.passed + counts.failed} tests but has no floor`);
  }
  return problems;
}

/** Reads and checks a floors file: `{ "floors": { "<scope>": <whole number ≥ 0> } }`. */
export function readFloors(file) {
  let document;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: cannot read the test floors: ${error.message}`);
  }
  const floors = document?.floors;
  if (floors === null || typeof floors !== 'object' || Array.isArray(floors)) throw new Error(`${file}: floors: expected an object of scope → minimum test count`);
  for (const [scope, floor] of Object.entries(floors)) {
    if (!Number.isInteger(floor) || floor < 0) throw new Error(`${file}: floors.${scope}: expected a whole number ≥ 0, found ${JSON.stringify(floor)}`);
  }
  return floors;
}

function main(argv) {
  const floorsIndex = argv.indexOf('--floors');
  const floorsFile = floorsIndex === -1 ? undefined : argv[floorsIndex + 1];
  const rest = floorsIndex === -1 ? argv : argv.filter((_, index) => index !== floorsIndex && index !== floorsIndex + 1);
  const scopes = countTests(readFileSync(rest[0] ?? 0, 'utf8'));
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const counts of scopes.values()) {
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped;
  }
  console.log(`tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  if (floorsFile === undefined) return 0;
  const problems = floorProblems(scopes, readFloors(floorsFile));
  for (const problem of problems) console.log(`test floor: ${problem} (${floorsFile})`);
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`count-tests: ${error.message}`);
    process.exitCode = 2;
  }
}
