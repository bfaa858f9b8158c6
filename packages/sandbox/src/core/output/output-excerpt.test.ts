import { describe, expect, it } from 'vitest';
import { outputExcerpt } from './output-excerpt.js';

describe('outputExcerpt', () => {
  it('leaves short plain text as it is', () => {
    expect(outputExcerpt('E   assert 1 == 2')).toBe('E   assert 1 == 2');
  });

  it('cuts after 200 characters by default and says how many are left out', () => {
    const text = 'a'.repeat(500_000_000 / 1000);
    expect(outputExcerpt(text)).toBe(`${'a'.repeat(200)}… (499,800 more characters)`);
  });

  it('escapes newlines, carriage returns, terminal escape sequences and direction marks', () => {
    expect(outputExcerpt('one\ntwo\r\u001b[2J\u202eevil\u0007')).toBe('one\\ntwo\\r\\u001b[2J\\u202eevil\\u0007');
  });

  it('counts the escapes against the limit, never splitting one', () => {
    expect(outputExcerpt('\u001b\u001b\u001b', { maxCharacters: 13 })).toBe('\\u001b\\u001b… (1 more character)');
  });

  it('never splits a character outside the basic plane', () => {
    expect(outputExcerpt('😀😀😀', { maxCharacters: 5 })).toBe('😀😀… (2 more characters)');
  });
});
