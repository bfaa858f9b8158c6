import { describe, expect, it } from 'vitest';
import { ADDED_AND_DELETED_FILE_LINES } from '../../../tools/test/helpers/git-patch-lines.js';
import { parseUnifiedDiff } from './unified-diff.js';

const PATCH = [
  'diff --git a/src/pkg/__init__.py b/src/pkg/__init__.py',
  'index 1111111..2222222 100644',
  '--- a/src/pkg/__init__.py',
  '+++ b/src/pkg/__init__.py',
  '@@ -1,3 +1,4 @@',
  ' """Docs."""',
  '+import os',
  ' ',
  '-from pkg.stats import mean',
  '+from pkg.stats import mean, median',
  ...ADDED_AND_DELETED_FILE_LINES,
  'diff --git "a/caf\\303\\251 x.py" "b/caf\\303\\251 x.py"',
  'GIT binary patch',
  'literal 3',
  'KcmZQz00002',
  '',
].join('\n');

describe('parseUnifiedDiff', () => {
  it('reads each file with its status and every line numbered as in the changed file', () => {
    const { files, isTruncated } = parseUnifiedDiff(PATCH);
    expect(isTruncated).toBe(false);
    expect(files.map((file) => [file.path, file.status, file.isBinary])).toEqual([
      ['src/pkg/__init__.py', 'modified', false],
      ['sitecustomize.py', 'added', false],
      ['old.py', 'deleted', false],
      ['café x.py', 'modified', true],
    ]);
    expect(files[0]?.hunks[0]?.lines).toEqual([
      { kind: 'context', line: 1, text: '"""Docs."""' },
      { kind: 'added', line: 2, text: 'import os' },
      { kind: 'context', line: 3, text: '' },
      { kind: 'removed', line: 4, text: 'from pkg.stats import mean' },
      { kind: 'added', line: 4, text: 'from pkg.stats import mean, median' },
    ]);
  });

  it('reads a hunk by its counts: an added line that looks like a file header stays an added line', () => {
    const [, added] = parseUnifiedDiff(PATCH).files;
    expect(added?.hunks[0]?.lines.map((line) => [line.kind, line.line, line.text])).toEqual([
      ['added', 1, '++ b/not-a-header.py'],
      ['added', 2, 'print("hi")'],
    ]);
  });

  it('stops at its limits and says so', () => {
    expect(parseUnifiedDiff(PATCH, { maxFiles: 2 })).toMatchObject({ isTruncated: true, files: [{ path: 'src/pkg/__init__.py' }, { path: 'sitecustomize.py' }] });
    expect(parseUnifiedDiff(PATCH, { maxCharacters: 200 }).isTruncated).toBe(true);
    const long = parseUnifiedDiff(PATCH, { maxLineCharacters: 8 });
    expect(long.files[0]?.hunks[0]?.lines[1]?.text).toBe('import o');
  });

  it('reads no files out of text that is not a diff', () => {
    expect(parseUnifiedDiff('hello\n@@ -1 +1 @@\n+x\n').files).toEqual([]);
  });
});
