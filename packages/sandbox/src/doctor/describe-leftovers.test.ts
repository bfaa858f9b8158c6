import { describe, expect, it } from 'vitest';
import type { ManagedContainer } from '../docker/managed-containers.js';
import type { ManagedImage } from '../docker/managed-images.js';
import { describeLeftovers } from './describe-leftovers.js';

function container(name: string, fields: Partial<ManagedContainer> = {}): ManagedContainer {
  return { id: name, name, image: 'agentbench/py-runner:0.1.0', state: 'running', createdAt: new Date(0), isOrphan: false, labels: {}, ...fields };
}

function image(name: string, fields: Partial<ManagedImage> = {}): ManagedImage {
  return { id: `sha256:${name}`, reference: `agentbench-runtime-move:${name}`, committedFrom: name, kind: 'runtime-move', createdAt: new Date(0), isOrphan: false, labels: {}, ...fields };
}

describe('describeLeftovers', () => {
  it('lists a live pool\'s sandboxes apart from leftovers', () => {
    expect(describeLeftovers([container('a', { poolId: 'p1' }), container('b', { poolId: 'p1' })])).toEqual({
      name: 'leftover containers',
      status: 'ok',
      detail: 'none; 2 in live sandbox pool(s) p1 (warm or handed out, not leftovers)',
      isRequired: false,
    });
  });

  it('counts the sandboxes of a dead process\'s pool as orphaned leftovers', () => {
    const check = describeLeftovers([container('a', { poolId: 'p1', isOrphan: true }), container('b'), container('c', { poolId: 'p2' })]);
    expect(check.status).toBe('warn');
    expect(check.detail).toBe('2 labelled container(s), 1 orphaned; remove them with `ab cleanup`; 1 in live sandbox pool(s) p2 (warm or handed out, not leftovers)');
  });

  it('says none when there is nothing', () => {
    expect(describeLeftovers([]).detail).toBe('none');
    expect(describeLeftovers([], []).status).toBe('ok');
  });

  it('counts the temporary images by kind (gVisor moves, snapshots), orphaned ones apart, even with no container left', () => {
    const check = describeLeftovers([], [image('a', { isOrphan: true }), image('b')]);
    expect(check.status).toBe('warn');
    expect(check.detail).toBe('2 temporary image(s) (2 gVisor move), 1 orphaned; remove them with `ab cleanup`');
    expect(describeLeftovers([container('c')], [image('a', { isOrphan: true })]).detail).toBe(
      '1 labelled container(s), 0 orphaned; 1 temporary image(s) (1 gVisor move), 1 orphaned; remove them with `ab cleanup`',
    );
    const snapshot = image('d', { reference: 'agentbench-snapshot:d-0a1b2c3d', kind: 'snapshot' });
    const { kind: _kind, ...untold } = image('e', { reference: 'sha256:e' });
    expect(describeLeftovers([], [snapshot, image('a'), untold, image('b')]).detail).toBe('4 temporary image(s) (2 gVisor move, 1 snapshot, 1 other), 0 orphaned; remove them with `ab cleanup`');
  });
});
