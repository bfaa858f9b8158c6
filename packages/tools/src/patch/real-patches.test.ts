import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyHunks } from './apply-hunks.js';
import { parsePatchText } from './parse-patch-text.js';

// Real patches from SWE-bench Lite records: the copy kept in the repository (packages/swebench/test/fixtures),
// so these tests run in every clone.
const fixture = resolve(dirname(fileURLToPath(import.meta.url)), '../../../swebench/test/fixtures/swe-bench-lite-sample.jsonl');

interface Record_ {
  instance_id: string;
  patch: string;
  test_patch: string;
}

const records: Record_[] = readFileSync(fixture, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Record_);
const patches = records.flatMap((record) => [
  [`${record.instance_id} patch`, record.patch],
  [`${record.instance_id} test_patch`, record.test_patch],
]);

describe('real git patches (SWE-bench Lite)', () => {
  it('reads the three records of the sample', () => {
    expect(records.map((record) => record.instance_id)).toEqual(['sympy__sympy-13031', 'pytest-dev__pytest-11143', 'django__django-15781']);
  });

  it.each(patches)('%s parses the same in strict and tolerant mode', (_name, text) => {
    const strict = parsePatchText(text as string, true);
    const tolerant = parsePatchText(text as string, false);
    expect(strict.format).toBe('git');
    expect(tolerant.repairs).toEqual([]);
    expect(tolerant.files.map((file) => [file.oldPath, file.newPath, file.hunks.map((hunk) => [hunk.oldStart, hunk.lines])])).toEqual(
      strict.files.map((file) => [file.oldPath, file.newPath, file.hunks.map((hunk) => [hunk.oldStart, hunk.lines])]),
    );
  });

  it.each(patches)('%s applies in strict mode to a file holding its old lines', (_name, text) => {
    for (const file of parsePatchText(text as string, true).files) {
      if (file.oldPath === undefined) continue;
      // A file of filler lines with each hunk's old side where the header says.
      const last = Math.max(...file.hunks.map((hunk) => (hunk.oldStart ?? 1) + hunk.lines.length));
      const lines = Array.from({ length: last + 5 }, (_, index) => `# filler ${index + 1}`);
      for (const hunk of file.hunks) {
        const oldSide = hunk.lines.filter((line) => line[0] === ' ' || line[0] === '-').map((line) => line.slice(1));
        lines.splice((hunk.oldStart ?? 1) - 1, oldSide.length, ...oldSide);
      }
      const result = applyHunks(`${lines.join('\n')}\n`, file.hunks, { isStrict: true, path: file.oldPath }).content;
      for (const hunk of file.hunks) {
        const newSide = hunk.lines.filter((line) => line[0] === ' ' || line[0] === '+').map((line) => line.slice(1));
        expect(result).toContain(`${newSide.join('\n')}\n`);
      }
    }
  });
});
