// Tests for check-readme-examples.mjs: planted examples that do not type-check fail it at their
// README line and column; every ```ts example of the repository's READMEs passes it (this is the
// README example check `pnpm test` runs).
// Run: node --test scripts/check-readme-examples.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkReadmeExamples, extractTypeScriptBlocks, listReadmes } from './check-readme-examples.mjs';
import { REPOSITORY_ROOT } from './check-layers.mjs';

const scriptPath = fileURLToPath(new URL('./check-readme-examples.mjs', import.meta.url));
const scoringFolder = path.join(REPOSITORY_ROOT, 'packages/scoring');

let scratch;
before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'agentbench-readme-examples-'));
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function writeReadme(name, text) {
  const file = path.join(scratch, name, 'README.md');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

// This process's own folders only: other test files run beside this one (node --test runs files in
// parallel) and may check the real READMEs, with their own folder in the same package, at the same time.
const leftoverFolders = (folder) => readdirSync(folder).filter((name) => name.startsWith(`.readme-examples-${process.pid}-`));

describe('extractTypeScriptBlocks', () => {
  it('takes ```ts, ```typescript and ```mts blocks (indented ones too) with the README line of their first line, and nothing else', () => {
    const markdown = [
      '# Title', //                                   1
      '```ts', //                                     2
      "const a = 'a';", //                            3
      '```', //                                       4
      '```sh', //                                     5
      'pnpm test', //                                 6
      '```', //                                       7
      '- a list item:', //                            8
      '  ```typescript', //                           9
      '  const b = 1;', //                           10
      '    const c = 2;', //                         11
      '  ```', //                                    12
      '````mts title="x.mts"', //                    13
      '```ts', //                                    14
      '````', //                                     15
      '```js', //                                    16
      'const d = 3;', //                             17
      '```', //                                      18
      '~~~ts', //                                    19
      'const e = 4;', //                             20
      '~~~', //                                      21
    ].join('\n');
    assert.deepEqual(extractTypeScriptBlocks(markdown), [
      { code: "const a = 'a';", line: 3, indent: 0 },
      { code: 'const b = 1;\n  const c = 2;', line: 10, indent: 2 },
      { code: '```ts', line: 14, indent: 0 },
      { code: 'const e = 4;', line: 20, indent: 0 },
    ]);
  });
});

describe('checkReadmeExamples on planted examples', () => {
  it('fails a wrong argument, a name that is not defined and an API imported from the wrong package, at their README line and column; passes the good one', () => {
    const readme = writeReadme('planted', [
      '# planted', //                                                                          1
      '```ts', //                                                                              2
      "import { judge } from '@agentbench/scoring';", //                                       3
      "console.log(judge({ strategy: 'all_pass' }, [{ success: true }]).passed);", //           4
      '```', //                                                                                5
      'A wrong strategy:', //                                                                  6
      '```ts', //                                                                              7
      "import { judge } from '@agentbench/scoring';", //                                       8
      "judge({ strategy: 'best' }, []);", //                                                   9
      '```', //                                                                               10
      '```ts', //                                                                             11
      "import { summarizeAttempts } from '@agentbench/scoring';", //                          12
      'summarizeAttempts(attemptRecords);', //                                                13
      '```', //                                                                               14
      'An API shown from a package that does not export it (as runAgentAttempt moved):', //   15
      '```ts', //                                                                             16
      "import { summarizeAttempts } from '@agentbench/schemas';", //                          17
      'summarizeAttempts([]);', //                                                            18
      '```', //                                                                               19
    ].join('\n'));
    const { problems, exampleCount, readmeCount } = checkReadmeExamples({ readmes: [{ readme, packageFolder: scoringFolder }] });
    assert.equal(exampleCount, 4);
    assert.equal(readmeCount, 1);
    const shown = path.relative(REPOSITORY_ROOT, readme);
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems[0], new RegExp(`^${escape(shown)}:9:\\d+: error TS2\\d+: .*'"best"'`));
    assert.match(problems[1], new RegExp(`^${escape(shown)}:13:19: error TS2304: Cannot find name 'attemptRecords'\\.$`));
    assert.match(problems[2], new RegExp(`^${escape(shown)}:17:10: error TS2305: Module '"@agentbench/schemas"' has no exported member 'summarizeAttempts'\\.$`));
    assert.deepEqual(leftoverFolders(scoringFolder), [], 'the temporary example folder is removed');
  });

  it('exits 1 naming the problem, and 0 once the example is fixed (the command line)', () => {
    const root = path.join(scratch, 'command-line');
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
    writeFileSync(path.join(root, 'tsconfig.base.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [] } }));
    const write = (code) => writeFileSync(path.join(root, 'README.md'), `# Root\n\n  1. Example:\n     \`\`\`ts\n     ${code}\n     \`\`\`\n`);
    write("const count: number = 'three';");
    const planted = spawnSync(process.execPath, [scriptPath, '--root', root], { encoding: 'utf8' });
    assert.equal(planted.status, 1, planted.stdout);
    assert.match(planted.stderr, /README\.md:5:12: error TS2322: Type 'string' is not assignable to type 'number'\./);
    write('const count: number = 3;');
    const fixed = spawnSync(process.execPath, [scriptPath, '--root', root], { encoding: 'utf8' });
    assert.equal(fixed.status, 0, fixed.stderr);
    assert.match(fixed.stdout, /1 examples of 1 READMEs type-check/);
    assert.deepEqual(leftoverFolders(root), []);
  });
});

describe('checkReadmeExamples on this repository', () => {
  it('type-checks every ```ts example of README.md and the packages\' READMEs', () => {
    const readmes = listReadmes();
    assert.ok(readmes.some(({ readme }) => readme === path.join(REPOSITORY_ROOT, 'README.md')));
    const { problems, exampleCount } = checkReadmeExamples({ readmes });
    assert.deepEqual(problems, [], `README examples that do not type-check:\n${problems.join('\n')}`);
    assert.ok(exampleCount >= 10, `checked ${exampleCount} examples`);
  });
});

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
