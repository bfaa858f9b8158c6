import { describe, expect, it } from 'vitest';
import { timestampForPath } from './timestamp-for-path.js';

describe('timestampForPath', () => {
  it('writes the time in UTC with no character a file name cannot hold', () => {
    expect(timestampForPath(new Date('2025-01-31T12:00:05.678+02:00'))).toBe('2025-01-31_10-00-05');
  });

  it('sorts as the times do', () => {
    const names = [new Date('2025-10-01T00:00:00Z'), new Date('2025-09-30T23:59:59Z'), new Date('2024-12-31T00:00:00Z')].map((date) => timestampForPath(date));
    expect([...names].sort()).toEqual([names[2], names[1], names[0]]);
  });
});
