import type { ManagedImage } from '@agentbench/sandbox';
import { describe, expect, it } from 'vitest';
import { describeManagedImage } from './describe-managed-image.js';

function image(fields: Partial<ManagedImage>): ManagedImage {
  return { id: 'sha256:0', reference: 'agentbench-runtime-move:ab-1', committedFrom: 'ab-1', createdAt: new Date(0), isOrphan: true, labels: {}, runId: 'r1', taskId: 't1', ...fields };
}

describe('describeManagedImage', () => {
  it('names a verdict post-setup snapshot as one, not as a gVisor move', () => {
    expect(describeManagedImage(image({ reference: 'agentbench-snapshot:ab-1-0a1b2c3d', kind: 'snapshot' }))).toBe(
      "agentbench-snapshot:ab-1-0a1b2c3d (post-setup snapshot of ab-1 for the verdict's sandbox, run r1, task t1)",
    );
  });

  it('names a gVisor move as one, and an image of no known kind by what it was committed from', () => {
    expect(describeManagedImage(image({ kind: 'runtime-move' }))).toBe('agentbench-runtime-move:ab-1 (gVisor move of ab-1, run r1, task t1)');
    const { runId: _runId, taskId: _taskId, ...unowned } = image({ reference: 'sha256:0' });
    expect(describeManagedImage(unowned)).toBe('sha256:0 (committed from ab-1, run -, task -)');
  });
});
