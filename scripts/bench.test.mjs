// Tests for bench.mjs's command line and the figure lines benches write (bench-figures.mjs); the benches
// themselves run in `pnpm test` as `pnpm -s bench --quick`.
// Run: node --test scripts/bench.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BENCHES, parseBenchArguments, readFigureLines } from './bench.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const figuresModule = new URL('./bench-figures.mjs', import.meta.url).href;

let scratch;
before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'agentbench-bench-test-'));
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('parseBenchArguments', () => {
  it('reads --quick, --json FILE and bench names', () => {
    assert.deepEqual(parseBenchArguments(['--quick', '--json', 'out.json', 'sandbox']), { isQuick: true, jsonFile: 'out.json', note: undefined, only: ['sandbox'] });
    assert.deepEqual(parseBenchArguments([]), { isQuick: false, jsonFile: undefined, note: undefined, only: [] });
    assert.deepEqual(parseBenchArguments(['--json', 'b.json', '--note', 'load 20 on 2 cores']), { isQuick: false, jsonFile: 'b.json', note: 'load 20 on 2 cores', only: [] });
  });

  it('refuses --json without a file and an unknown flag, saying what it expected', () => {
    assert.throws(() => parseBenchArguments(['--json']), /^Error: --json: expected a file/);
    assert.throws(() => parseBenchArguments(['--json', '--quick']), /^Error: --json: expected a file/);
    assert.throws(() => parseBenchArguments(['--fast']), /^Error: unknown option --fast \(expected --quick, --json FILE, --note TEXT or bench names\)$/);
    assert.throws(() => parseBenchArguments(['--note']), /^Error: --note: expected a text/);
  });
});

describe('figure lines', () => {
  it('a bench records its figures with the same-run baseline, and a skip with its reason', () => {
    const file = path.join(scratch, 'figures.jsonl');
    writeFileSync(file, '');
    const script = `import { recordFigure, skipBench } from '${figuresModule}';
recordFigure('demo', { name: 'exec median', value: 2.5, unit: 'ms', baseline: { name: 'raw exec', value: Number.NaN }, target: '≤ 15 ms' });
skipBench('demo', 'no engine here', 'AGENTBENCH_REQUIRE_DOCKER');`;
    const environment = { ...process.env, AGENTBENCH_BENCH_FIGURES: file };
    delete environment.AGENTBENCH_REQUIRE_DOCKER;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: environment, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'demo skipped: no engine here\n');
    assert.deepEqual(readFigureLines(readFileSync(file, 'utf8')), {
      figures: [{ name: 'exec median', value: 2.5, unit: 'ms', baseline: { name: 'raw exec', value: null }, target: '≤ 15 ms' }],
      skipped: 'no engine here',
    });
  });

  it('a skip fails under the variable CI sets for it', () => {
    const script = `import { skipBench } from '${figuresModule}'; skipBench('demo', 'no engine here', 'AGENTBENCH_REQUIRE_DOCKER');`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, AGENTBENCH_REQUIRE_DOCKER: '1' }, encoding: 'utf8' });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /AGENTBENCH_REQUIRE_DOCKER=1 but no engine here/);
  });
});

describe('the bench list', () => {
  it('names files that exist, so a moved bench fails here rather than being skipped', () => {
    for (const bench of BENCHES) assert.equal(existsSync(path.join(root, bench)), true, bench);
  });
});
