import { describe, expect, it } from 'vitest';
import { failureOf } from '../../test/helpers/failure-of.js';
import { applyHunks } from './apply-hunks.js';
import type { PatchHunk } from './patch-model.js';

function hunk(lines: string[], options: Partial<PatchHunk> = {}): PatchHunk {
  return { oldStart: 1, anchors: [], isEndOfFile: false, lines, header: '@@ -1 +1 @@', patchLine: 1, ...options };
}

const source = 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n';

describe('applyHunks', () => {
  it('applies a hunk whose line number is off', () => {
    const result = applyHunks(source, [hunk([' def sub(a, b):', '-    return a - b', '+    return a - b  # checked'], { oldStart: 1 })], { isStrict: true, path: 'calc.py' });
    expect(result.content).toBe('def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b  # checked\n');
  });

  it('finds hunks without line numbers after their anchor', () => {
    const result = applyHunks(source, [hunk(['-    return a - b', '+    return b - a'], { oldStart: undefined, anchors: ['def sub(a, b):'] })], { isStrict: false, path: 'calc.py' });
    expect(result.content).toBe('def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return b - a\n');
  });

  it('places an "End of File" chunk at the last occurrence of its lines', () => {
    const file = 'x = 1\nprint(x)\nx = 1\nprint(x)\n';
    const result = applyHunks(file, [hunk(['-print(x)', '+print(x + 1)'], { oldStart: undefined, isEndOfFile: true })], { isStrict: false, path: 'x.py' });
    expect(result.content).toBe('x = 1\nprint(x)\nx = 1\nprint(x + 1)\n');
  });

  it('appends a pure insertion without a place at the end of the file', () => {
    const result = applyHunks('a\nb\n', [hunk(['+c'], { oldStart: undefined })], { isStrict: false, path: 'x' });
    expect(result.content).toBe('a\nb\nc\n');
  });

  it('keeps CRLF line endings when an LF patch changes a CRLF file', () => {
    const result = applyHunks('one\r\ntwo\r\nthree\r\n', [hunk([' one', '-two', '+2'])], { isStrict: false, path: 'x.txt' });
    expect(result.content).toBe('one\r\n2\r\nthree\r\n');
    expect(result.repairs.join(' ')).toContain('CRLF');
  });

  it('keeps a byte order mark', () => {
    const result = applyHunks('\uFEFFa\nb\n', [hunk([' a', '-b', '+c'])], { isStrict: false, path: 'x' });
    expect(result.content).toBe('\uFEFFa\nc\n');
  });

  it('keeps a missing final newline when the patch does not mention it', () => {
    const result = applyHunks('a\nb', [hunk([' a', '-b', '+c'])], { isStrict: false, path: 'x' });
    expect(result.content).toBe('a\nc');
  });

  it('honours "No newline at end of file" markers that fit the file', () => {
    const result = applyHunks('a\nb', [hunk([' a', '-b', '\\ No newline at end of file', '+c', '\\ No newline at end of file'])], { isStrict: true, path: 'x' });
    expect(result.content).toBe('a\nc');
  });

  it('ignores markers that do not fit, in tolerant mode only', () => {
    const lines = [' a', '-b', '\\ No newline at end of file', '+c', '\\ No newline at end of file'];
    expect(applyHunks('a\nb\n', [hunk(lines)], { isStrict: false, path: 'x' }).content).toBe('a\nc\n');
    expect(failureOf(() => applyHunks('a\nb\n', [hunk(lines)], { isStrict: true, path: 'x' })).kind).toBe('patch_failed');
  });

  it('tolerates trailing whitespace differences, except in strict mode', () => {
    const lines = [' def add(a, b):', '-    return a - b', '+    return a + b'];
    const file = 'def add(a, b):   \n    return a - b\n';
    expect(applyHunks(file, [hunk(lines)], { isStrict: false, path: 'calc.py' }).content).toBe('def add(a, b):   \n    return a + b\n');
    expect(failureOf(() => applyHunks(file, [hunk(lines)], { isStrict: true, path: 'calc.py' })).message).toContain('strict mode');
  });

  it('names the failing hunk and shows the closest lines of the file', () => {
    const failure = failureOf(() =>
      applyHunks(
        source,
        [hunk([' def add(a, b):', '-    return a - b', '+    return a + b']), hunk([' def sub(a, b):', '-    return a + b', '+    return b'], { oldStart: 5, header: '@@ -5,2 +5,2 @@' })],
        { isStrict: false, path: 'calc.py' },
      ),
    );
    expect(failure.kind).toBe('patch_failed');
    expect(failure.message).toContain('hunk 2 of 2 for calc.py (@@ -5,2 +5,2 @@)');
    expect(failure.details).toMatchObject({ file: 'calc.py', hunk_index: 2, hunk_count: 2, closest_line: 5, first_mismatch_line: 6 });
    expect(failure.details?.['actual_lines']).toEqual(['def sub(a, b):', '    return a - b']);
  });

  it('fails for a location-less hunk found nowhere', () => {
    const failure = failureOf(() => applyHunks(source, [hunk(['-    return 42', '+    return 0'], { oldStart: undefined })], { isStrict: false, path: 'calc.py' }));
    expect(failure.kind).toBe('patch_failed');
    expect(failure.message).toContain('was not found in the file');
  });
});
