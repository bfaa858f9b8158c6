import { describe, expect, it } from 'vitest';
import type { ManagedContainer } from '../docker/managed-containers.js';
import type { ManagedImage } from '../docker/managed-images.js';
import { describeLeftovers } from './describe-leftovers.js';

function container(name: string, fields: Partial<ManagedContainer> = {}): ManagedContainer {
  return { id: name, name, image: 'agentbench/py-runner:0.1.0', state: 'running', createdAt: new Date(0), isOrphan: false, labels: {}, ...fields };
}

function image(name: string, fields: Partial<ManagedImage> = {}): ManagedImage {
  return { id: `sha256:${name}`, reference: `agentbench-runtime-move:${name}`, committedFrom: name, createdAt: new Date(0), isOrphan: false, labels: {}, ...fields };
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

  it('counts the temporary images of gVisor moves, orphaned ones apart, even with no container left', () => {
    const check = describeLeftovers([], [image('a', { isOrphan: true }), image('b')]);
    expect(check.status).toBe('warn');
    expect(check.detail).toBe('2 temporary gVisor move image(s), 1 orphaned; remove them with `ab cleanup`');
    expect(describeLeftovers([container('c')], [image('a', { isOrphan: true })]).detail).toBe(
      '1 labelled container(s), 0 orphaned; 1 temporary gVisor move image(s), 1 orphaned; remove them with `ab cleanup`',
    );
  });
});
