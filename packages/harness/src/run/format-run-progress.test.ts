import { describe, expect, it } from 'vitest';
import { formatRunProgress } from './format-run-progress.js';

describe('formatRunProgress', () => {
  it('shows running, queued, done, errored, retried and the ETA, and why -j auto holds', () => {
    const line = formatRunProgress({ total: 40, running: 3, queued: 25, done: 12, passed: 10, failed: 1, errored: 1, retried: 2, etaSec: 250, held: 'memory' });
    expect(line).toBe('12/40 done · 3 running · 25 queued · 10 passed · 1 failed · 1 errored · 2 retried · ETA 4m10s · holding: memory');
  });

  it('has no ETA before an attempt finished', () => {
    expect(formatRunProgress({ total: 2, running: 0, queued: 2, done: 0, passed: 0, failed: 0, errored: 0, retried: 0, etaSec: null })).toContain('ETA ?');
  });
});
