// Tests for check-layers.mjs: planted upward imports, undeclared imports and cycles in fixture
// workspaces fail it, and so do folders of a package importing each other in a loop; the repository itself passes it (this is the layering check `pnpm test` runs).
// Run: node --test scripts/check-layers.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkLayers, LAYERS, readImports } from './check-layers.mjs';

const scriptPath = fileURLToPath(new URL('./check-layers.mjs', import.meta.url));
const FIXTURE_LAYERS = [['@fixture/base'], ['@fixture/middle', '@fixture/beside'], ['@fixture/top']];

let scratch;
before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'agentbench-check-layers-'));
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * A small workspace that follows the layering: top → middle → base, beside → base, each package
 * with a shipped file, a test and a relative import. `files` adds or replaces files (path → text).
 */
function workspace(name, files = {}) {
  const root = path.join(scratch, name);
  const manifest = (packageName, dependencies = {}, devDependencies = {}) => JSON.stringify({ name: packageName, type: 'module', dependencies, devDependencies });
  const tree = {
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n  - apps/*\n',
    'packages/base/package.json': manifest('@fixture/base'),
    'packages/base/src/index.ts': "export { greet } from './greet.js';\nexport type { Greeting } from './greeting.js';\n",
    'packages/base/src/greet.ts': "import type { Greeting } from './greeting.js';\nexport const greet = (): Greeting => ({ text: 'hello' });\n",
    'packages/base/src/greeting.ts': 'export interface Greeting { text: string }\n',
    'packages/base/test/helpers.ts': "export const helper = 'base helper';\n",
    'packages/middle/package.json': manifest('@fixture/middle', { '@fixture/base': 'workspace:*' }),
    'packages/middle/src/index.ts': "import { greet } from '@fixture/base';\nexport const shout = () => greet().text.toUpperCase();\n",
    'packages/middle/src/index.test.ts': "import { shout } from './index.js';\nimport { helper } from '../../base/test/helpers.js';\nshout();\nvoid helper;\n",
    'packages/beside/package.json': manifest('@fixture/beside', { '@fixture/base': 'workspace:*' }),
    'packages/beside/src/index.ts': "export const besideValue = async () => (await import('@fixture/base')).greet();\n",
    'apps/top/package.json': manifest('@fixture/top', { '@fixture/middle': 'workspace:*' }, { '@fixture/base': 'workspace:*' }),
    'apps/top/src/main.ts': "import { shout } from '@fixture/middle';\nimport { run } from './commands/run.js';\nrun(shout());\n",
    'apps/top/src/commands/run.ts': "import { UsageError } from '../usage-error.js';\nexport function run(text: string) { if (!text) throw new UsageError(); }\n",
    'apps/top/src/usage-error.ts': 'export class UsageError extends Error {}\n',
    'apps/top/test/main.test.ts': "import { greet } from '@fixture/base';\nimport '../src/main.js';\ngreet();\n",
    ...files,
  };
  for (const [file, text] of Object.entries(tree)) {
    if (text === undefined) continue;
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}

function problemsOf(root, layers = FIXTURE_LAYERS) {
  return checkLayers({ root, layers }).problems;
}

function assertOneProblem(problems, pattern) {
  assert.equal(problems.length, 1, `expected one problem, found:\n${problems.join('\n')}`);
  assert.match(problems[0], pattern);
}

describe('check-layers on fixture workspaces', () => {
  it('passes a workspace whose imports all point down', () => {
    const root = workspace('clean');
    const { problems, packageCount, fileCount } = checkLayers({ root, layers: FIXTURE_LAYERS });
    assert.deepEqual(problems, []);
    assert.equal(packageCount, 4);
    assert.equal(fileCount, 11);
  });

  it('fails an upward import, naming the file, the line and both layers', () => {
    const root = workspace('upward', {
      'packages/base/src/greet.ts': "import type { Greeting } from './greeting.js';\nimport { shout } from '@fixture/middle';\nexport const greet = (): Greeting => ({ text: shout() });\n",
    });
    assertOneProblem(problemsOf(root), /^packages\/base\/src\/greet\.ts:2: @fixture\/base \(layer 1: @fixture\/base\) imports "@fixture\/middle" from @fixture\/middle \(layer 2: .*\): a package may import only layers below its own$/);
  });

  it('fails an upward import by a type-only import, an export-from, a dynamic import and an import type', () => {
    for (const [index, line] of [
      "import type { Greeting } from '@fixture/top';",
      "export { shout } from '@fixture/middle';",
      "export const later = () => import('@fixture/top');",
      "export type Later = import('@fixture/middle').Shout;",
    ].entries()) {
      const root = workspace(`upward-form-${index}`, { 'packages/base/src/extra.ts': `${line}\n` });
      assertOneProblem(problemsOf(root), /^packages\/base\/src\/extra\.ts:1: @fixture\/base .* imports "@fixture\/(top|middle)"/);
    }
  });

  it('fails an import between two packages of the same layer', () => {
    const root = workspace('sideways', { 'packages/beside/src/extra.ts': "import { shout } from '@fixture/middle';\nexport const extra = shout;\n" });
    assertOneProblem(problemsOf(root), /^packages\/beside\/src\/extra\.ts:1: .* imports "@fixture\/middle"/);
  });

  it('fails an upward dependency in package.json even when no file imports it', () => {
    const root = workspace('declared', {
      'packages/base/package.json': JSON.stringify({ name: '@fixture/base', devDependencies: { '@fixture/top': 'workspace:*' } }),
    });
    assertOneProblem(problemsOf(root), /^packages\/base\/package\.json: @fixture\/base .* lists @fixture\/top .* in devDependencies/);
  });

  it('fails a shipped file that imports a devDependency, and any file importing an undeclared package', () => {
    const shipped = workspace('dev-only', { 'apps/top/src/extra.ts': "import { greet } from '@fixture/base';\nexport const extra = greet;\n" });
    assertOneProblem(problemsOf(shipped), /^apps\/top\/src\/extra\.ts:1: imports "@fixture\/base", but apps\/top\/package\.json does not list @fixture\/base in its dependencies \(a shipped file may not use a devDependency\)$/);
    const undeclared = workspace('undeclared', { 'apps/top/package.json': JSON.stringify({ name: '@fixture/top', dependencies: { '@fixture/middle': 'workspace:*' } }) });
    assertOneProblem(problemsOf(undeclared), /^apps\/top\/test\/main\.test\.ts:1: imports "@fixture\/base", but apps\/top\/package\.json does not list @fixture\/base in its dependencies or devDependencies$/);
  });

  it('fails a relative path into another package from shipped code, and from a test into a higher layer', () => {
    const shipped = workspace('path-shipped', { 'apps/top/src/extra.ts': "export { greet } from '../../../packages/base/src/greet.js';\n" });
    assertOneProblem(problemsOf(shipped), /^apps\/top\/src\/extra\.ts:1: @fixture\/top .* reaches into @fixture\/base .* by a path/);
    const upward = workspace('path-upward', { 'packages/base/test/extra.test.ts': "import { shout } from '../../middle/src/index.js';\nshout();\n" });
    assertOneProblem(problemsOf(upward), /^packages\/base\/test\/extra\.test\.ts:1: @fixture\/base .* reaches into @fixture\/middle .* by a path/);
  });

  it('fails a package that has no layer', () => {
    const root = workspace('no-layer', { 'packages/stray/package.json': JSON.stringify({ name: '@fixture/stray' }) });
    assertOneProblem(problemsOf(root), /^packages\/stray\/package\.json: package @fixture\/stray has no layer: place it in LAYERS/);
  });

  it('fails a cycle of two files, as main.ts ↔ commands/* over UsageError was', () => {
    const root = workspace('cycle-two', {
      'apps/top/src/main.ts': "import { shout } from '@fixture/middle';\nimport { run } from './commands/run.js';\nexport class UsageError extends Error {}\nrun(shout());\n",
      'apps/top/src/commands/run.ts': "import { UsageError } from '../main.js';\nexport function run(text: string) { if (!text) throw new UsageError(); }\n",
    });
    assertOneProblem(problemsOf(root), /^import cycle: apps\/top\/src\/commands\/run\.ts → apps\/top\/src\/main\.ts → apps\/top\/src\/commands\/run\.ts$/);
  });

  it('fails a cycle made only of type imports, as llm-client ↔ chat-completions-api was', () => {
    const root = workspace('cycle-types', {
      'packages/base/src/greeting.ts': "import type { greet } from './greet.js';\nexport interface Greeting { text: string; source?: typeof greet }\n",
    });
    assertOneProblem(problemsOf(root), /^import cycle: packages\/base\/src\/greet\.ts → packages\/base\/src\/greeting\.ts → packages\/base\/src\/greet\.ts$/);
  });

  it('fails a longer cycle through an index and a dynamic import, and a file importing itself', () => {
    const longer = workspace('cycle-long', {
      'packages/middle/src/a.ts': "export { b } from './b.js';\nexport const a = 1;\n",
      'packages/middle/src/b.ts': "export const b = () => import('./c.mjs');\n",
      'packages/middle/src/c.mts': "import { a } from './index.js';\nexport const c = a;\n",
      'packages/middle/src/index.ts': "import { greet } from '@fixture/base';\nexport { a } from './a.js';\nexport const shout = () => greet().text.toUpperCase();\n",
    });
    assertOneProblem(problemsOf(longer), /^import cycle: packages\/middle\/src\/a\.ts → packages\/middle\/src\/b\.ts → packages\/middle\/src\/c\.mts → packages\/middle\/src\/index\.ts → packages\/middle\/src\/a\.ts$/);
    const self = workspace('cycle-self', { 'packages/base/src/self.ts': "export * from './self.js';\n" });
    assertOneProblem(problemsOf(self), /^import cycle: packages\/base\/src\/self\.ts → packages\/base\/src\/self\.ts$/);
  });

  // Two folders that import each other with no file cycle, as harness attempt/ ↔ pipeline/ were.
  const folderCycle = {
    'packages/base/src/attempt/run-attempt.ts': "import { lock } from '../run/run-lock.js';\nexport const runAttempt = () => lock();\n",
    'packages/base/src/attempt/attempt-paths.ts': "export const attemptPaths = () => 'attempt';\n",
    'packages/base/src/run/run-lock.ts': "export const lock = () => 'locked';\n",
    'packages/base/src/run/run-driver.ts': "import { runAttempt } from '../attempt/run-attempt.js';\nexport const drive = () => runAttempt();\n",
  };

  it('fails two folders of a package that import each other though no file cycle does, naming one import per arrow', () => {
    const root = workspace('folder-cycle', folderCycle);
    assertOneProblem(
      checkLayers({ root, layers: FIXTURE_LAYERS }).problems,
      /^folder cycle in packages\/base\/src\/: attempt\/ → run\/ → attempt\/: packages\/base\/src\/attempt\/run-attempt\.ts imports packages\/base\/src\/run\/run-lock\.ts; packages\/base\/src\/run\/run-driver\.ts imports packages\/base\/src\/attempt\/run-attempt\.ts$/,
    );
    // The same folders with the lock moved below both pass.
    const mended = workspace('folder-cycle-mended', {
      ...folderCycle,
      'packages/base/src/attempt/run-attempt.ts': "import { lock } from '../util/run-lock.js';\nexport const runAttempt = () => lock();\n",
      'packages/base/src/util/run-lock.ts': "export const lock = () => 'locked';\n",
    });
    assert.deepEqual(checkLayers({ root: mended, layers: FIXTURE_LAYERS }).problems, []);
  });

  it('fails a file and a folder beside it that import each other, inside a sub-folder, and ignores test files', () => {
    const root = workspace('folder-cycle-nested', {
      // As harness's pipeline and its record stage were: no file cycle, but pipeline.ts → stages/ → pipeline.ts.
      'packages/base/src/attempt/pipeline.ts': "import { clone } from './stages/clone.js';\nexport interface End { ok: boolean }\nexport const run = (): End => ({ ok: clone() });\n",
      'packages/base/src/attempt/stages/clone.ts': "export const clone = () => true;\n",
      'packages/base/src/attempt/stages/record.ts': "import type { End } from '../pipeline.js';\nexport const record = (end: End) => JSON.stringify(end);\n",
      // A test may reach across folders: it is no arrow.
      'packages/base/src/run/run-driver.test.ts': "import { run } from '../attempt/pipeline.js';\nrun();\n",
      'packages/base/src/attempt/pipeline.test.ts': "import { drive } from '../run/run-driver.test.js';\nvoid drive;\n",
    });
    assertOneProblem(checkLayers({ root, layers: FIXTURE_LAYERS }).problems, /^folder cycle in packages\/base\/src\/attempt\/: pipeline\.ts → stages\/ → pipeline\.ts: packages\/base\/src\/attempt\/pipeline\.ts imports packages\/base\/src\/attempt\/stages\/clone\.ts; packages\/base\/src\/attempt\/stages\/record\.ts imports packages\/base\/src\/attempt\/pipeline\.ts$/);
  });

  it('exits 1 with the problems on stderr, and 0 on a clean workspace (the command line)', () => {
    // The command line uses the repository's LAYERS, so the fixture is named like the real bottom two layers.
    const root = workspace('command-line', {
      'packages/base/package.json': JSON.stringify({ name: '@agentbench/schemas' }),
      'packages/middle/package.json': JSON.stringify({ name: '@agentbench/sandbox', dependencies: { '@agentbench/schemas': 'workspace:*' } }),
      'packages/middle/src/index.ts': "import { greet } from '@agentbench/schemas';\nexport const shout = () => greet().text.toUpperCase();\n",
      'packages/middle/src/index.test.ts': undefined,
      'packages/beside/package.json': undefined,
      'apps/top/package.json': undefined,
    });
    rmSync(path.join(root, 'packages/beside'), { recursive: true, force: true });
    rmSync(path.join(root, 'apps'), { recursive: true, force: true });
    const clean = spawnSync(process.execPath, [scriptPath, '--root', root], { encoding: 'utf8' });
    assert.equal(clean.status, 0, clean.stderr);
    assert.match(clean.stdout, /2 packages, \d+ files: every import points down, no import cycle/);
    writeFileSync(path.join(root, 'packages/base/src/extra.ts'), "import '@agentbench/sandbox';\n");
    const planted = spawnSync(process.execPath, [scriptPath, '--root', root], { encoding: 'utf8' });
    assert.equal(planted.status, 1);
    assert.match(planted.stderr, /packages\/base\/src\/extra\.ts:1: @agentbench\/schemas \(layer \d+: .*\) imports "@agentbench\/sandbox"/);
  });
});

describe('readImports', () => {
  it('reads every kind of module specifier with its line, and skips specifiers that are not literals', () => {
    const text = [
      "import a from 'a';",
      "import type { B } from 'b';",
      "import { type C } from 'c';",
      "export * from 'd';",
      "import e = require('e');",
      "const f = await import('f');",
      "type G = import('g').G;",
      "const h = require('h');",
      'const i = await import(name);',
      "import 'j';",
    ].join('\n');
    assert.deepEqual(
      readImports('file.ts', text).map(({ specifier, line, isTypeOnly }) => `${line} ${specifier}${isTypeOnly ? ' (types)' : ''}`),
      ['1 a', '2 b (types)', '3 c (types)', '4 d', '5 e', '6 f', '7 g (types)', '8 h', '10 j'],
    );
  });
});

describe('check-layers on this repository', () => {
  it('places every workspace package in a layer, and finds every import pointing down, no import cycle and no folder cycle', () => {
    const { problems, packageCount, fileCount } = checkLayers();
    assert.deepEqual(problems, [], `the layering check failed:\n${problems.join('\n')}`);
    assert.ok(packageCount >= LAYERS.flat().length - 2, `read ${packageCount} packages`);
    assert.ok(fileCount > 300, `read ${fileCount} files`);
  });
});
