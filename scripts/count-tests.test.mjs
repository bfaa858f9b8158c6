// Tests for count-tests.mjs: per-scope counts from turbo-prefixed vitest and node test output, and the
// floors CI checks (a scope that ran fewer tests, none, or has no floor fails; the checked-in floors file
// is well-formed and names every package's tiers).
// Run: node --test scripts/count-tests.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { countTests, floorProblems, readFloors } from './count-tests.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const script = path.join(root, 'scripts/count-tests.mjs');
const LOG = [
  '\x1b[2m@agentbench/sandbox:test:unit: \x1b[22m      Tests  \x1b[32m120 passed\x1b[39m | 3 skipped (123)',
  '@agentbench/sandbox:test:integration:       Tests  30 passed | 1 failed (31)',
  '@agentbench/scoring:test:integration: No test files found, exiting with code 0',
  '@agentbench/evaluator-example:test:unit: # pass 3',
  '@agentbench/evaluator-example:test:unit: # fail 0',
  '# pass 40',
  '# skipped 2',
  'ℹ some other line: Tests are fun (1)',
].join('\n');

let scratch;
before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'agentbench-count-tests-'));
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('countTests', () => {
  it('counts each turbo scope apart, and the unprefixed node runner as the root scripts scope', () => {
    assert.deepEqual(Object.fromEntries(countTests(LOG)), {
      '@agentbench/sandbox#test:unit': { passed: 120, failed: 0, skipped: 3 },
      '@agentbench/sandbox#test:integration': { passed: 30, failed: 1, skipped: 0 },
      '@agentbench/evaluator-example#test:unit': { passed: 3, failed: 0, skipped: 0 },
      '//#test:scripts': { passed: 40, failed: 0, skipped: 2 },
    });
  });
});

describe('floorProblems', () => {
  const floors = { '@agentbench/sandbox#test:unit': 110, '@agentbench/sandbox#test:integration': 31, '@agentbench/evaluator-example#test:unit': 3, '@agentbench/scoring#test:integration': 0, '//#test:scripts': 40 };

  it('passes a run at or above every floor (failed tests ran; a floor of 0 needs no count)', () => {
    assert.deepEqual(floorProblems(countTests(LOG), floors), []);
  });

  it('names a scope below its floor, one whose count is missing, and one without a floor', () => {
    const shrunk = LOG.replace('120 passed', '90 passed').replace('# pass 3', '# pass 0').replace('@agentbench/sandbox:test:integration', '@agentbench/tools:test:integration');
    assert.deepEqual(floorProblems(countTests(shrunk), floors), [
      '@agentbench/sandbox#test:unit: ran 90 tests, fewer than its floor of 110',
      '@agentbench/sandbox#test:integration: ran 0 tests, fewer than its floor of 31 (no test count found in the output)',
      '@agentbench/evaluator-example#test:unit: ran 0 tests, fewer than its floor of 3',
      '@agentbench/tools#test:integration: ran 31 tests but has no floor',
    ]);
  });
});

describe('the command', () => {
  it('prints the closing line, and with --floors exits 1 naming the scope below its floor', () => {
    const log = path.join(scratch, 'run.log');
    const floorsFile = path.join(scratch, 'floors.json');
    writeFileSync(log, LOG);
    writeFileSync(floorsFile, JSON.stringify({ floors: { '@agentbench/sandbox#test:unit': 121, '@agentbench/sandbox#test:integration': 1, '@agentbench/evaluator-example#test:unit': 1, '//#test:scripts': 1 } }));
    const plain = spawnSync(process.execPath, [script, log], { encoding: 'utf8' });
    assert.equal(plain.status, 0);
    assert.equal(plain.stdout, 'tests: 193 passed, 1 failed, 5 skipped\n');
    const checked = spawnSync(process.execPath, [script, '--floors', floorsFile, log], { encoding: 'utf8' });
    assert.equal(checked.status, 1);
    assert.match(checked.stdout, /^test floor: @agentbench\/sandbox#test:unit: ran 120 tests, fewer than its floor of 121 \(.*floors\.json\)$/m);
  });

  it('refuses a malformed floors file with its path and field, without a stack', () => {
    const floorsFile = path.join(scratch, 'bad-floors.json');
    writeFileSync(floorsFile, JSON.stringify({ floors: { '@agentbench/sandbox#test:unit': 'many' } }));
    const checked = spawnSync(process.execPath, [script, '--floors', floorsFile, path.join(scratch, 'run.log')], { encoding: 'utf8' });
    assert.equal(checked.status, 2);
    assert.equal(checked.stderr, `count-tests: ${floorsFile}: floors.@agentbench/sandbox#test:unit: expected a whole number ≥ 0, found "many"\n`);
  });
});

describe('scripts/test-floors.json', () => {
  it('has a floor for both tiers of every package, the example plugins and the scripts', () => {
    const floors = readFloors(path.join(root, 'scripts/test-floors.json'));
    const packages = ['packages', 'apps'].flatMap((folder) => readdirSync(path.join(root, folder)).map((name) => JSON.parse(readFileSync(path.join(root, folder, name, 'package.json'), 'utf8')).name));
    const expected = [...packages.flatMap((name) => [`${name}#test:unit`, `${name}#test:integration`]), '@agentbench/evaluator-example#test:unit', '@agentbench/scanner-example#test:unit', '//#test:scripts'];
    assert.deepEqual(Object.keys(floors).sort(), expected.sort());
  });
});
