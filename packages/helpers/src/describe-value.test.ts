import { describe, expect, it } from 'vitest';
import { describeValue } from './describe-value.js';

describe('describeValue', () => {
  it.each([
    [undefined, 'undefined'],
    [null, 'null'],
    [3, '3'],
    [true, 'true'],
    [10n, '10n'],
    ['text', '"text"'],
    [{ a: [1, 2] }, '{"a":[1,2]}'],
    [() => 1, 'a function'],
  ])('%s → %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });

  it('cuts long JSON to 80 characters', () => {
    const described = describeValue({ text: 'x'.repeat(200) });
    expect(described).toHaveLength(80);
    expect(described.endsWith('...')).toBe(true);
  });

  it('falls back to String for what JSON cannot hold', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(describeValue(cycle)).toBe('[object Object]');
  });
});
