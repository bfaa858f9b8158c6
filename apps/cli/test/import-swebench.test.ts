import { readdir, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sample = path.join(repoRoot, 'packages/swebench/test/fixtures/swe-bench-lite-sample.jsonl');

const temporary = useTemporaryDirectory({ per: 'block', prefix: 'ab-cli-import-swebench-' });

describe('ab import-swebench', () => {
  it('imports the sample records into tasks that pass ab validate-task', async () => {
    const outDir = path.join(temporary.path, 'tasks', 'swe-lite');
    const run = await runCli(['import-swebench', sample, '--out', outDir]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`imported django__django-15781 (django) -> ${path.join(outDir, 'django__django-15781')}`);
    expect(run.stdout).toMatch(/3 imported, 0 skipped into .*swe-lite \(suite swe-lite\)/);
    const validate = await runCli(['validate-task', outDir]);
    expect(validate.stdout).toMatch(/3 file\(s\) checked: 3 valid, 0 invalid/);
    expect(validate.exitCode).toBe(0);
  });

  it('reports a record with missing fields by id, imports the others and exits 1', async () => {
    const lines = (await readFile(sample, 'utf8')).trim().split('\n');
    const broken = JSON.parse(lines[0] as string) as Record<string, unknown>;
    delete broken.FAIL_TO_PASS;
    delete broken.base_commit;
    const file = path.join(temporary.path, 'broken.jsonl');
    await writeFile(file, [JSON.stringify(broken), lines[1]].join('\n'));
    const outDir = path.join(temporary.path, 'tasks', 'broken');
    const run = await runCli(['import-swebench', file, '--out', outDir, '--filter', 'sympy__sympy-13031,pytest-dev__pytest-11143', '--filter', 'absent__id-1']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`skipped ${file}:1 (sympy__sympy-13031): missing base_commit, FAIL_TO_PASS`);
    expect(run.stderr).toContain(`not in ${file}: absent__id-1`);
    expect(await readdir(outDir)).toEqual(['pytest-dev__pytest-11143']);
  });

  it('fails in one line for a file that does not exist', async () => {
    const run = await runCli(['import-swebench', path.join(temporary.path, 'missing.jsonl'), '--out', path.join(temporary.path, 'tasks', 'x')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`ab: ${path.join(temporary.path, 'missing.jsonl')}: file not found\n`);
  });
});
