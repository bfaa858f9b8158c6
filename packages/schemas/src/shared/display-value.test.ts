import { describe, expect, it } from 'vitest';
import { formatIssue, formatIssueList, type ValidationIssue } from '../errors/validation-issue.js';
import { boundMessage, showText, showValue } from './display-value.js';

describe('showValue', () => {
  it('shows a short string whole, quoted', () => {
    expect(showValue('best')).toBe('"best"');
    expect(showValue(42)).toBe('42');
    expect(showValue(null)).toBe('null');
    expect(showValue([1, 2])).toBe('a list of 2 items');
    expect(showValue({ a: 1 })).toBe('a mapping');
  });

  it('shows at most 80 characters of a long value and counts the rest', () => {
    const shown = showValue('x'.repeat(1_000_000));
    expect(shown).toBe(`"${'x'.repeat(80)}"… (999,920 more characters)`);
    expect(showText('y'.repeat(81))).toBe(`${'y'.repeat(80)}… (1 more character)`);
  });

  it('escapes control and invisible characters so they are visible', () => {
    expect(showValue('a\nb\tc\u0000d\u001b[31m"\\')).toBe('"a\\nb\\tc\\0d\\u001B[31m\\"\\\\"');
    // A right-to-left override and a lone surrogate would garble a terminal.
    expect(showValue('abc\u202Edef\uD800')).toBe('"abc\\u202Edef\\uD800"');
    expect(showValue('é😀')).toBe('"é😀"');
  });

  it('counts escapes toward the 80 characters, so binary input stays short', () => {
    const shown = showValue('\u0001'.repeat(150_000));
    expect(shown.length).toBeLessThan(120);
    expect(shown).toMatch(/^"(\\u0001){13}"… \(149,987 more characters\)$/);
  });
});

describe('formatIssue', () => {
  const issue: ValidationIssue = { file: 'f.yaml', line: 2, column: 3, path: 'name', message: 'ok', severity: 'error' };

  it('keeps one line and bounds any message that shows a value whole', () => {
    expect(formatIssue({ ...issue, message: `bad:\n${'z'.repeat(5000)}` })).toBe(`f.yaml:2:3: name: bad:\\n${'z'.repeat(994)}… (4,006 more characters)`);
    expect(boundMessage('a \\d regex')).toBe('a \\d regex');
  });

  it('lists at most 20 issues of a file and counts the rest', () => {
    const lines = formatIssueList(Array.from({ length: 25 }, (_, index) => ({ ...issue, line: index + 1 })));
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toBe('f.yaml: 5 more issues not listed');
  });
});
