import type { ManagedContainer, ManagedContainerFilter, ManagedImage } from '@agentbench/sandbox';
import { describe, expect, it } from 'vitest';
import { removeOrphanedSandboxes, type OrphanedSandboxEngine } from './remove-orphaned-sandboxes.js';

function container(id: string, runId: string | undefined, creatorPid: number): ManagedContainer {
  return { id, name: id, image: 'img', state: 'running', createdAt: new Date(0), isOrphan: true, creatorPid, labels: {}, taskId: 'toy', ...(runId === undefined ? {} : { runId }) };
}

function image(reference: string, runId: string, creatorPid: number): ManagedImage {
  return { id: `sha256:${reference}`, reference, kind: 'snapshot', committedFrom: 'gone', createdAt: new Date(0), isOrphan: true, creatorPid, labels: {}, runId };
}

describe('removeOrphanedSandboxes', () => {
  it('removes the killed run\'s containers (and no one else\'s) and returns how many went', async () => {
    const removedFilters: ManagedContainerFilter[] = [];
    const engine: OrphanedSandboxEngine = {
      list: async () => [container('aaaaaaaaaaaaaaaa', 'run-1', 41), container('bbbbbbbbbbbbbbbb', 'run-2', 99)],
      listImages: async () => [],
      remove: async (filter) => {
        removedFilters.push(filter);
        return { removed: [container('aaaaaaaaaaaaaaaa', 'run-1', 41)], failed: [], removedImages: [], failedImages: [] };
      },
    };
    await expect(removeOrphanedSandboxes(41, '/runs/r1', [engine])).resolves.toBe(1);
    expect(removedFilters).toEqual([{ runId: 'run-1', onlyOrphans: true }]);
  });

  it('refuses to resume when the engine cannot list them', async () => {
    const engine: OrphanedSandboxEngine = {
      list: async () => {
        throw new Error('connect ENOENT /var/run/docker.sock');
      },
      listImages: async () => [],
      remove: async () => ({ removed: [], failed: [], removedImages: [], failedImages: [] }),
    };
    await expect(removeOrphanedSandboxes(41, '/runs/r1', [engine])).rejects.toThrow(
      /^\/runs\/r1: cannot resume: the sandboxes of the killed run \(pid 41\) could not be listed \(connect ENOENT \/var\/run\/docker.sock\).*ab cleanup --orphans-only/,
    );
  });

  it('refuses to resume when a container will not go, naming it and the cleanup command', async () => {
    const stuck = container('cccccccccccccccc', 'run-7', 41);
    const engine: OrphanedSandboxEngine = {
      list: async () => [stuck],
      listImages: async () => [],
      remove: async () => ({ removed: [], failed: [{ container: stuck, message: 'device or resource busy' }], removedImages: [], failedImages: [] }),
    };
    const failure = removeOrphanedSandboxes(41, '/runs/r1', [engine]);
    await expect(failure).rejects.toThrow('1 sandbox(es) of the killed run (pid 41) could not be removed: cccccccccccc (running, task toy): device or resource busy');
    await expect(failure).rejects.toThrow('`ab cleanup --run-id run-7`');
  });

  it('removes the images of the killed run whose container was already gone (a snapshot committed before the kill)', async () => {
    const removedFilters: ManagedContainerFilter[] = [];
    const engine: OrphanedSandboxEngine = {
      list: async () => [],
      listImages: async () => [image('agentbench-snapshot:a-1', 'run-3', 41), image('agentbench-snapshot:b-1', 'run-4', 99)],
      remove: async (filter) => {
        removedFilters.push(filter);
        return { removed: [], failed: [], removedImages: [image('agentbench-snapshot:a-1', 'run-3', 41)], failedImages: [] };
      },
    };
    await removeOrphanedSandboxes(41, '/runs/r1', [engine]);
    expect(removedFilters).toEqual([{ runId: 'run-3', onlyOrphans: true }]);
  });
});
