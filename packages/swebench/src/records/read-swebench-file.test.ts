import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DatasetFileError } from '../errors/dataset-file-error.js';
import { readSwebenchFile } from './read-swebench-file.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';

const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/swe-bench-lite-sample.jsonl');
const lines = readFileSync(fixture, 'utf8').trim().split('\n');
const temporary = useTemporaryDirectory({ per: 'block', prefix: 'ab-swebench-read-' });

describe('readSwebenchFile', () => {
  it('reads JSON Lines, reporting a malformed line with file:line and a repeated id', async () => {
    const file = path.join(temporary.path, 'mixed.jsonl');
    await writeFile(file, [lines[0], '{"instance_id": "broken', '', lines[1], lines[0]].join('\n'));
    const content = await readSwebenchFile(file);
    expect(content.records.map((record) => record.instanceId)).toEqual(['sympy__sympy-13031', 'pytest-dev__pytest-11143']);
    expect(content.problems.map((problem) => problem.location)).toEqual([`${file}:2`, `${file}:5`]);
    expect(content.problems[0]?.invalidFields[0]?.message).toMatch(/not valid JSON/);
    expect(content.problems[1]?.invalidFields[0]?.message).toBe(`repeats the instance at ${file}:1; the first one is kept`);
  });

  it('reads a JSON array with positions as [index]', async () => {
    const file = path.join(temporary.path, 'array.json');
    await writeFile(file, `[${lines[2]}, {"instance_id": "x"}]`);
    const content = await readSwebenchFile(file);
    expect(content.records.map((record) => record.instanceId)).toEqual(['django__django-15781']);
    expect(content.problems[0]?.location).toBe(`${file}[1]`);
    expect(content.problems[0]?.missingFields).toContain('repo');
  });

  it('throws a clear error for a missing file or a .json that is not JSON', async () => {
    await expect(readSwebenchFile(path.join(temporary.path, 'none.jsonl'))).rejects.toThrow(/none\.jsonl: file not found/);
    const file = path.join(temporary.path, 'bad.json');
    await writeFile(file, '{ nope');
    const error = await readSwebenchFile(file).catch((caught: unknown) => caught);
    expect(DatasetFileError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/bad\.json: not valid JSON/);
  });
});
