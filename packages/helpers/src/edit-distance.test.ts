import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.js';

describe('editDistance', () => {
  it.each([
    ['calc.py', 'calc.py', 0],
    ['calk.py', 'calc.py', 1],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
  ])('%s → %s is %i', (left, right, distance) => {
    expect(editDistance(left, right)).toBe(distance);
  });

  it('stops early past its limit', () => {
    expect(editDistance('aaaaaaaa', 'bbbbbbbb', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
  });
});
