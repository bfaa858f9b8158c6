import { describe, expect, it } from 'vitest';
import { ADDED_AND_DELETED_FILE_LINES } from '../../test/helpers/git-patch-lines.js';
import { failureOf } from '../../test/helpers/failure-of.js';
import { parsePatchText } from './parse-patch-text.js';

const unified = ['--- a/src/calc.py', '+++ b/src/calc.py', '@@ -1,3 +1,3 @@', ' def add(a, b):', '-    return a - b', '+    return a + b', ' '].join('\n');

describe('parsePatchText (tolerant)', () => {
  it('reads a unified diff with a/ b/ prefixes stripped', () => {
    const parsed = parsePatchText(unified, false);
    expect(parsed.format).toBe('unified');
    expect(parsed.files).toHaveLength(1);
    expect(parsed.files[0]).toMatchObject({ oldPath: 'src/calc.py', newPath: 'src/calc.py' });
    expect(parsed.files[0]?.hunks[0]).toMatchObject({ oldStart: 1, lines: [' def add(a, b):', '-    return a - b', '+    return a + b', ' '] });
    expect(parsed.repairs).toEqual([]);
  });

  it('keeps paths without prefixes as they are', () => {
    const parsed = parsePatchText(unified.replace('a/src', 'src').replace('b/src', 'src'), false);
    expect(parsed.files[0]).toMatchObject({ oldPath: 'src/calc.py', newPath: 'src/calc.py' });
  });

  it('recounts a hunk whose header counts are wrong and says so', () => {
    const patch = ['--- a/x.py', '+++ b/x.py', '@@ -1,7 +1,2 @@', ' a', '-b', '+c', ' d'].join('\n');
    const parsed = parsePatchText(patch, false);
    expect(parsed.files[0]?.hunks[0]?.lines).toEqual([' a', '-b', '+c', ' d']);
    expect(parsed.repairs).toContain('recounted hunk headers whose line counts did not match their bodies');
  });

  it('trusts header counts that fit, so removed "-- " and added "++ " lines are not taken for file headers', () => {
    const patch = ['--- a/schema.sql', '+++ b/schema.sql', '@@ -1,2 +1,2 @@', '--- old comment', '+++ new comment', ' CREATE TABLE t (id int);'].join('\n');
    const parsed = parsePatchText(patch, false);
    expect(parsed.files).toHaveLength(1);
    expect(parsed.files[0]?.hunks[0]?.lines).toEqual(['--- old comment', '+++ new comment', ' CREATE TABLE t (id int);']);
    expect(parsed.repairs).toEqual([]);
  });

  it('reads git new, deleted and renamed files', () => {
    const patch = [
      ...ADDED_AND_DELETED_FILE_LINES,
      'diff --git a/from.py b/to.py',
      'similarity index 100%',
      'rename from from.py',
      'rename to to.py',
    ].join('\n');
    const parsed = parsePatchText(patch, false);
    expect(parsed.format).toBe('git');
    expect(parsed.files.map((file) => [file.oldPath, file.newPath])).toEqual([
      [undefined, 'sitecustomize.py'],
      ['old.py', undefined],
      ['from.py', 'to.py'],
    ]);
  });

  it('removes code fences and CRLF line endings', () => {
    const parsed = parsePatchText(`\`\`\`diff\r\n${unified.replace(/\n/g, '\r\n')}\r\n\`\`\`\r\n`, false);
    expect(parsed.files[0]?.hunks[0]?.lines[1]).toBe('-    return a - b');
    expect(parsed.repairs).toEqual(expect.arrayContaining(['removed Markdown code fences', expect.stringContaining('CRLF')]));
  });

  it('takes unprefixed hunk lines as context', () => {
    const patch = ['--- a/x.py', '+++ b/x.py', '@@ -1,3 +1,3 @@', 'def f():', '-    return 1', '+    return 2'].join('\n');
    const parsed = parsePatchText(patch, false);
    expect(parsed.files[0]?.hunks[0]?.lines).toEqual([' def f():', '-    return 1', '+    return 2']);
  });

  it('reads hunks without line numbers as located by content, with their anchor', () => {
    const patch = ['--- a/x.py', '+++ b/x.py', '@@ def f():', '-    return 1', '+    return 2'].join('\n');
    const parsed = parsePatchText(patch, false);
    expect(parsed.format).toBe('bare-hunks');
    expect(parsed.files[0]?.hunks[0]).toMatchObject({ oldStart: undefined, anchors: ['def f():'] });
  });

  it('reads a Begin Patch block with add, update (with move and anchor) and delete', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: docs/new.md',
      '+# Title',
      '+text',
      '*** Update File: src/app.py',
      '*** Move to: src/main.py',
      '@@ def main():',
      '-    return 1',
      '+    return 0',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n');
    const parsed = parsePatchText(patch, false);
    expect(parsed.format).toBe('begin-patch');
    expect(parsed.files.map((file) => [file.oldPath, file.newPath])).toEqual([
      [undefined, 'docs/new.md'],
      ['src/app.py', 'src/main.py'],
      ['old.txt', undefined],
    ]);
    expect(parsed.files[1]?.hunks[0]).toMatchObject({ oldStart: undefined, anchors: ['def main():'], lines: ['-    return 1', '+    return 0'] });
  });

  it('converts a context diff to unified hunks', () => {
    const patch = [
      '*** a/calc.py\t2024-01-01 00:00:00',
      '--- b/calc.py\t2024-01-01 00:00:01',
      '***************',
      '*** 1,3 ****',
      '  def add(a, b):',
      '! \treturn a - b',
      '  ',
      '--- 1,4 ----',
      '  def add(a, b):',
      '! \treturn a + b',
      '+ # done',
      '  ',
    ].join('\n');
    const parsed = parsePatchText(patch, false);
    expect(parsed.format).toBe('context');
    expect(parsed.files[0]).toMatchObject({ oldPath: 'calc.py', newPath: 'calc.py' });
    expect(parsed.files[0]?.hunks[0]).toMatchObject({ oldStart: 1, lines: [' def add(a, b):', '-\treturn a - b', '+\treturn a + b', '+# done', ' '] });
  });

  it('fails with patch_failed on text that is no patch', () => {
    const failure = failureOf(() => parsePatchText('please fix the bug in calc.py', false));
    expect(failure.kind).toBe('patch_failed');
    expect(failure.message).toContain('names no file');
  });
});

describe('parsePatchText (strict)', () => {
  it('accepts a standard unified diff', () => {
    const parsed = parsePatchText(`${unified}\n`, true);
    expect(parsed.files[0]).toMatchObject({ oldPath: 'src/calc.py', newPath: 'src/calc.py' });
    expect(parsed.repairs).toEqual([]);
  });

  it.each([
    ['a Begin Patch block', '*** Begin Patch\n*** Delete File: x\n*** End Patch\n', 'Begin Patch'],
    ['a context diff', '*** a/x\n--- b/x\n***************\n*** 1 ****\n! a\n--- 1 ----\n! b\n', 'context diff'],
    ['a code fence', `\`\`\`diff\n${unified}\n\`\`\`\n`, 'code fence'],
    ['a hunk without numbers', '--- a/x\n+++ b/x\n@@\n-a\n+b\n', 'no line numbers'],
    ['wrong hunk counts', '--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n-a\n+b\n', 'line count'],
    ['hunks without file headers', '@@ -1 +1 @@\n-a\n+b\n', 'no "--- a/file"'],
  ])('rejects %s', (_name, patch, expected) => {
    const failure = failureOf(() => parsePatchText(patch, true));
    expect(failure.kind).toBe('patch_failed');
    expect(failure.message.toLowerCase()).toContain(expected.toLowerCase());
  });
});
