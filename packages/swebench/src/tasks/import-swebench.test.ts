import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSuite, loadTask } from '@agentbench/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportTargetError } from '../errors/import-target-error.js';
import { importSwebench } from './import-swebench.js';
import { PYTEST_COMMAND } from './test-command.js';
import { changedFilesOfPatch } from './patch-files.js';
import { testPatchCommands } from './test-patch-commands.js';

const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/swe-bench-lite-sample.jsonl');
const sampleLines = readFileSync(fixture, 'utf8').trim().split('\n');
const sampleIds = ['sympy__sympy-13031', 'pytest-dev__pytest-11143', 'django__django-15781'];

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ab-swebench-import-'));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

// Ids as awkward as the dataset's: spaces, brackets, quotes, a dollar sign.
const trickyIds = ["tests/test_q.py::test_quote[it's]", 'tests/test_q.py::test_space[a b]', 'tests/test_q.py::test_dollar["$HOME"]'];
const trickyRecord = {
  instance_id: 'acme__widgets-7',
  repo: 'acme/widgets',
  base_commit: 'b'.repeat(40),
  patch: '--- a/w.py\n+++ b/w.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n',
  test_patch: '--- a/tests/test_q.py\n+++ b/tests/test_q.py\n@@ -1 +1,2 @@\n a = 1\n+b = 2\n',
  problem_statement: 'Widgets break\r\nwhen quoted.',
  FAIL_TO_PASS: JSON.stringify(trickyIds.slice(0, 2)),
  PASS_TO_PASS: JSON.stringify(trickyIds.slice(2)),
  version: '0.1',
};

async function writeDataset(name: string, lines: string[]): Promise<string> {
  const file = path.join(scratch, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

describe('importSwebench', () => {
  it('imports the real records as valid task folders with the files beside them', async () => {
    const outDir = path.join(scratch, 'tasks', 'swe-lite');
    const result = await importSwebench({ file: fixture, outDir });
    expect(result.skipped).toEqual([]);
    expect(result.imported.map((task) => task.taskId)).toEqual(sampleIds);
    expect(result.imported.map((task) => task.testRunner)).toEqual(['sympy', 'pytest', 'django']);
    const suite = await loadSuite(path.join(scratch, 'tasks'), 'swe-lite');
    expect(suite.tasks.map((loaded) => loaded.task.id).sort()).toEqual([...sampleIds].sort());
    for (const id of sampleIds) {
      expect((await readdir(path.join(outDir, id))).sort()).toEqual(['gold.patch', 'problem_statement.md', 'swebench.json', 'task.yaml', 'test.patch']);
    }
    const django = await loadTask(path.join(outDir, 'django__django-15781', 'task.yaml'));
    expect(django.task.repo).toEqual({ url: 'https://github.com/django/django', commit: JSON.parse(sampleLines[2] as string).base_commit });
    // A docstring id names no label, so the module runs whole; its labelled tests are inside it.
    expect(django.task.run.command.endsWith("--parallel 1 'user_commands.tests'")).toBe(true);
    expect(django.task.setup.commands.at(-1)).toBe('python3 -m pip install -e .');
    // The patch text (blank context lines are a lone space) survives the YAML round trip byte for byte.
    expect(django.task.setup.commands.slice(0, 2)).toEqual(testPatchCommands(JSON.parse(sampleLines[2] as string).test_patch));
    // The test patch's files are the protected tests of the final verdict.
    expect(django.task.evaluation?.protected_paths).toEqual(changedFilesOfPatch(JSON.parse(sampleLines[2] as string).test_patch));
    expect(django.task.evaluation?.protected_paths?.length).toBeGreaterThan(0);
    expect(await readFile(path.join(outDir, 'django__django-15781', 'gold.patch'), 'utf8')).toBe(JSON.parse(sampleLines[2] as string).patch);
    // Nothing but the suite folder is left beside it.
    expect(await readdir(path.join(scratch, 'tasks'))).toEqual(['swe-lite']);
  });

  it('keeps every tricky test id intact through the shell', async () => {
    const file = await writeDataset('tricky.jsonl', [JSON.stringify(trickyRecord)]);
    const outDir = path.join(scratch, 'tasks', 'tricky');
    await importSwebench({ file, outDir });
    const loaded = await loadTask(path.join(outDir, 'acme__widgets-7', 'task.yaml'));
    const command = loaded.task.run.command;
    expect(command.startsWith(`${PYTEST_COMMAND} -- `)).toBe(true);
    const words = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${command.slice(PYTEST_COMMAND.length + 4)}`], { encoding: 'utf8' }).split('\0').slice(0, -1);
    expect(words).toEqual(trickyIds);
    expect(await readFile(path.join(outDir, 'acme__widgets-7', 'problem_statement.md'), 'utf8')).toBe('Widgets break\nwhen quoted.\n');
  });

  it('writes FAIL_TO_PASS and PASS_TO_PASS as the named tests, cut-short ids widened; Django keeps the exit code', async () => {
    const cutShort = { ...trickyRecord, PASS_TO_PASS: JSON.stringify(['tests/test_q.py::test_cut[a', 'tests/test_q.py::test_ok']) };
    const file = await writeDataset('named.jsonl', [JSON.stringify(cutShort)]);
    await importSwebench({ file, outDir: path.join(scratch, 'tasks', 'named') });
    const loaded = await loadTask(path.join(scratch, 'tasks', 'named', 'acme__widgets-7', 'task.yaml'));
    expect(loaded.task.validation?.expected_failing_tests).toEqual(trickyIds.slice(0, 2));
    expect(loaded.task.evaluation?.pass_to_pass).toEqual(['tests/test_q.py::test_cut', 'tests/test_q.py::test_ok']);
    await importSwebench({ file: fixture, outDir: path.join(scratch, 'tasks', 'lite'), filter: ['django__django-15781'] });
    const django = await loadTask(path.join(scratch, 'tasks', 'lite', 'django__django-15781', 'task.yaml'));
    expect(django.task.validation?.expected_failing_tests).toBeUndefined();
    expect(django.task.evaluation?.pass_to_pass).toBeUndefined();
  });

  it('skips records with missing fields by id and imports the rest', async () => {
    const { test_patch: _dropped, ...withoutTestPatch } = trickyRecord;
    const file = await writeDataset('partial.jsonl', [JSON.stringify(withoutTestPatch), 'not json', sampleLines[1] as string]);
    const outDir = path.join(scratch, 'tasks', 'partial');
    const result = await importSwebench({ file, outDir });
    expect(result.imported.map((task) => task.taskId)).toEqual(['pytest-dev__pytest-11143']);
    expect(result.skipped.map((problem) => [problem.location, problem.instanceId, problem.missingFields])).toEqual([
      [`${file}:2`, undefined, []],
      [`${file}:1`, 'acme__widgets-7', ['test_patch']],
    ]);
    expect(await readdir(outDir)).toEqual(['pytest-dev__pytest-11143']);
  });

  it('imports only the filtered ids and names the ones it cannot find', async () => {
    const outDir = path.join(scratch, 'tasks', 'filtered');
    const result = await importSwebench({ file: fixture, outDir, filter: ['django__django-15781', 'nope__nope-1'] });
    expect(result.imported.map((task) => task.taskId)).toEqual(['django__django-15781']);
    expect(result.unknownFilterIds).toEqual(['nope__nope-1']);
  });

  it('leaves an existing task alone unless asked to overwrite it', async () => {
    const outDir = path.join(scratch, 'tasks', 'again');
    await mkdir(path.join(outDir, 'sympy__sympy-13031'), { recursive: true });
    await writeFile(path.join(outDir, 'sympy__sympy-13031', 'task.yaml'), 'mine');
    const first = await importSwebench({ file: fixture, outDir, filter: ['sympy__sympy-13031'] });
    expect(first.imported).toEqual([]);
    expect(first.skipped[0]?.invalidFields[0]?.message).toMatch(/already exists; pass --overwrite/);
    expect(await readFile(path.join(outDir, 'sympy__sympy-13031', 'task.yaml'), 'utf8')).toBe('mine');
    const second = await importSwebench({ file: fixture, outDir, filter: ['sympy__sympy-13031'], isOverwriting: true });
    expect(second.imported).toHaveLength(1);
    expect(await readFile(path.join(outDir, 'sympy__sympy-13031', 'task.yaml'), 'utf8')).toMatch(/^# Imported from SWE-bench instance sympy__sympy-13031/);
    expect(await readdir(path.join(scratch, 'tasks'))).toEqual(['again']);
  });

  it('writes no task that fails validation, and says why', async () => {
    const outDir = path.join(scratch, 'tasks', 'invalid');
    const result = await importSwebench({ file: fixture, outDir, dockerImage: 'not an image' });
    expect(result.imported).toEqual([]);
    expect(result.skipped).toHaveLength(3);
    expect(result.skipped[0]?.invalidFields[0]).toEqual({ field: 'task.yaml environment.docker_image', message: expect.stringMatching(/^expected a Docker image reference without spaces/) });
    expect(await readdir(path.join(scratch, 'tasks'))).toEqual([]);
  });

  it('rejects an output folder whose name is not a suite name', async () => {
    const error = await importSwebench({ file: fixture, outDir: path.join(scratch, 'bad suite') }).catch((caught: unknown) => caught);
    expect(ImportTargetError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/suite name "bad suite"/);
  });
});
