// Tests for api-report.mjs: the repository's reports match its code and every package is within its
// budget (this is the check `pnpm test` runs), and in a fixture workspace a new export, a missing
// report and a package over budget each fail it, saying what to do.
// Run: node --test scripts/api-report.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkReports, computeReports, REPORT_FILE } from './api-report.mjs';

let scratch;
before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'agentbench-api-report-'));
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const manifest = JSON.stringify({ name: '@fixture/lib', type: 'module', exports: { '.': { '@agentbench/source': './src/index.ts', types: './dist/index.d.ts' } } });

/** A one-package workspace whose index is `index`; its report is written as the code stands, then `index` may change. */
function workspace(name, index, budget = 10) {
  const root = path.join(scratch, name);
  const files = {
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
    'scripts/api-budgets.json': JSON.stringify({ budgets: { '@fixture/lib': budget } }),
    'packages/lib/package.json': manifest,
    'packages/lib/src/index.ts': index,
    'packages/lib/src/greet.ts': 'export interface Greeting { text: string }\nexport const greet = (): Greeting => ({ text: "hi" });\nexport function shout(): string { return "HI"; }\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function writeReports(root) {
  for (const [folder, report] of computeReports(root)) writeFileSync(path.join(folder, REPORT_FILE), report.text);
}

describe('api-report', () => {
  it('lists every exported name with its kind', () => {
    const root = workspace('kinds', "export { greet, shout, type Greeting } from './greet.js';\n");
    const [report] = computeReports(root).values();
    assert.equal(report.count, 3);
    assert.match(report.text, /^const +greet$/m);
    assert.match(report.text, /^function +shout$/m);
    assert.match(report.text, /^interface +Greeting$/m);
  });

  it('passes when the report matches the code, and fails naming the new export and the update command when it does not', () => {
    const root = workspace('creep', "export { greet } from './greet.js';\n");
    writeReports(root);
    assert.deepEqual(checkReports(root), []);
    writeFileSync(path.join(root, 'packages/lib/src/index.ts'), "export { greet, shout } from './greet.js';\n");
    const problems = checkReports(root);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /packages\/lib\/api-report\.txt is out of date/);
    assert.match(problems[0], /\+ function +shout/);
    assert.match(problems[0], /node scripts\/api-report\.mjs --update/);
  });

  it('fails on a missing report and on a package over its budget', () => {
    const root = workspace('budget', "export { greet, shout, type Greeting } from './greet.js';\n", 2);
    const problems = checkReports(root);
    assert.ok(problems.some((problem) => /api-report\.txt is missing/.test(problem)));
    assert.ok(problems.some((problem) => /@fixture\/lib exports 3 names, over its budget of 2/.test(problem)));
  });

  it('the repository: every report matches its package and every package is within budget', () => {
    const problems = checkReports();
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});
