import { describe, expect, it } from 'vitest';
import { formatTable } from './format-table.js';

describe('formatTable', () => {
  it('pads every column to its widest cell and trims line ends', () => {
    expect(formatTable(['task', 'outcome'], [['a', 'valid'], ['longer-task', 'x']])).toEqual([
      'task         outcome',
      '-----------  -------',
      'a            valid',
      'longer-task  x',
    ]);
  });
});
