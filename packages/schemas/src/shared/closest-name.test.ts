import { describe, expect, it } from 'vitest';
import { closestName } from './closest-name.js';

describe('closestName', () => {
  it('suggests the closest candidate within a third of the name, ignoring case', () => {
    expect(closestName('work_dir', ['image', 'workdir', 'network'])).toBe('workdir');
    expect(closestName('Enabeld', ['enabled', 'config'])).toBe('enabled');
    expect(closestName('strng_contains', ['string_contains', 'regex_match'])).toBe('string_contains');
  });

  it('suggests nothing when no candidate is close enough', () => {
    expect(closestName('timeout', ['image', 'workdir'])).toBeUndefined();
    expect(closestName('anything', [])).toBeUndefined();
  });
});
