import { describe, expect, it } from 'vitest';
import { HeadTailCapture } from './head-tail-capture.js';
import { sliceToBytes, truncateLines } from './truncate-lines.js';

const lines = (count: number): string[] => Array.from({ length: count }, (_, index) => `line ${index + 1}`);

describe('truncateLines', () => {
  it('keeps everything under both limits', () => {
    expect(truncateLines(lines(3), { maxLines: 10, maxBytes: 1000 })).toMatchObject({ text: 'line 1\nline 2\nline 3', isTruncated: false });
  });

  it('keeps the first and last halves by lines, numbering from the first line given', () => {
    const result = truncateLines(lines(100), { maxLines: 10, maxBytes: 100_000, firstLineNumber: 51 });
    expect(result.text.split('\n')).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5', '... [truncated: lines 56-145 (90 lines) omitted] ...', 'line 96', 'line 97', 'line 98', 'line 99', 'line 100']);
    expect(result).toMatchObject({ headLineCount: 5, tailLineCount: 5, omittedFrom: 56, omittedTo: 145 });
  });

  it('keeps the halves by bytes too', () => {
    const result = truncateLines(lines(100), { maxLines: 1000, maxBytes: 40 });
    expect(result.isTruncated).toBe(true);
    expect(Buffer.byteLength(result.text)).toBeLessThan(40 + 60);
  });

  it('cuts one enormous line without splitting a character', () => {
    const result = truncateLines(['é'.repeat(100)], { maxLines: 10, maxBytes: 21 });
    expect(result.text).toBe(`${'é'.repeat(5)} … [line cut: 100 characters]`);
    expect(sliceToBytes('aé', 2)).toBe('a');
  });
});

describe('HeadTailCapture', () => {
  it('keeps all output under its limits', () => {
    const capture = new HeadTailCapture(100);
    capture.push('a\nb');
    capture.push('\nc\n');
    expect(capture.result(10, 'hint')).toEqual({ text: 'a\nb\nc\n', isTruncated: false, bytes: 6, lines: 3 });
  });

  it('keeps the start and the end of a long stream pushed in small chunks', () => {
    const capture = new HeadTailCapture(20);
    for (let index = 0; index < 1000; index += 1) capture.push(`${index}\n`);
    const result = capture.result(1000, 'see the log');
    expect(result.text.startsWith('0\n1\n2\n3\n4\n')).toBe(true);
    expect(result.text.endsWith('\n998\n999\n')).toBe(true);
    expect(result.text).toContain('[output truncated: 3890 bytes, 1000 lines in all; see the log]');
    expect(result.isTruncated).toBe(true);
  });

  it('cuts by lines when the text is short but has many lines', () => {
    const capture = new HeadTailCapture(10_000);
    capture.push(`${lines(50).join('\n')}\n`);
    const result = capture.result(4, 'hint');
    expect(result.text.split('\n').filter((line) => line.startsWith('line'))).toEqual(['line 1', 'line 2', 'line 50']);
    expect(result).toMatchObject({ isTruncated: true, lines: 50, keptHeadLines: 2 });
  });
});
