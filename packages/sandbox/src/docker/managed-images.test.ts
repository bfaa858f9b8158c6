import { hostname } from 'node:os';
import type Dockerode from 'dockerode';
import { describe, expect, it } from 'vitest';
import { listManagedImages, removeManagedImages } from './managed-images.js';

// A pid no process has: far above Linux's pid_max default.
const DEAD_PID = '4194999';

function image(tag: string, labels: Record<string, string>): Dockerode.ImageInfo {
  return {
    Id: `sha256:${tag}`,
    RepoTags: [`agentbench-runtime-move:${tag}`],
    Created: 0,
    Labels: { 'dev.agentbench.managed': 'true', 'dev.agentbench.committed-from': tag, 'dev.agentbench.hostname': hostname(), ...labels },
  } as unknown as Dockerode.ImageInfo;
}

/** Just what the functions call: image listing (its label filter recorded), container listing, image removal. */
function fakeEngine(images: Dockerode.ImageInfo[], containerImages: string[]) {
  const removed: string[] = [];
  const filters: unknown[] = [];
  const docker = {
    listImages: async (options: { filters: unknown }) => {
      filters.push(options.filters);
      return images;
    },
    listContainers: async () => containerImages.map((reference) => ({ Image: reference, ImageID: 'sha256:other' })),
    getImage: (reference: string) => ({
      remove: async () => {
        removed.push(reference);
      },
    }),
  } as unknown as Dockerode;
  return { docker, removed, filters };
}

describe('managed images (the temporary images of gVisor moves and snapshots)', () => {
  it('lists them by our labels, with the run filter, telling orphans (creator gone) from those of a live process', async () => {
    const engine = fakeEngine([image('a', { 'dev.agentbench.pid': DEAD_PID, 'dev.agentbench.run-id': 'r1' }), image('b', { 'dev.agentbench.pid': String(process.pid) })], []);
    const listed = await listManagedImages({ runId: 'r1' }, { docker: engine.docker });
    expect(engine.filters).toEqual([{ label: ['dev.agentbench.managed=true', 'dev.agentbench.committed-from', 'dev.agentbench.run-id=r1'] }]);
    expect(listed.map((entry) => [entry.reference, entry.isOrphan, entry.committedFrom])).toEqual([
      ['agentbench-runtime-move:a', true, 'a'],
      ['agentbench-runtime-move:b', false, 'b'],
    ]);
    expect(listed[0]?.runId).toBe('r1');
    const orphans = await listManagedImages({ onlyOrphans: true }, { docker: engine.docker });
    expect(orphans.map((entry) => entry.reference)).toEqual(['agentbench-runtime-move:a']);
  });

  it('tells a snapshot from a gVisor move by its image-kind label, else (committed before the label) by its repository', async () => {
    const snapshot = { ...image('s', { 'dev.agentbench.image-kind': 'snapshot' }), RepoTags: ['agentbench-snapshot:s-0a1b2c3d'] } as Dockerode.ImageInfo;
    const olderSnapshot = { ...image('o', {}), RepoTags: ['agentbench-snapshot:o-0a1b2c3d'] } as Dockerode.ImageInfo;
    const untagged = { ...image('u', {}), RepoTags: ['<none>:<none>'] } as Dockerode.ImageInfo;
    const engine = fakeEngine([snapshot, olderSnapshot, image('m', { 'dev.agentbench.image-kind': 'runtime-move' }), image('n', {}), untagged], []);
    const listed = await listManagedImages({}, { docker: engine.docker });
    expect(listed.map((entry) => [entry.reference, entry.kind])).toEqual([
      ['agentbench-snapshot:s-0a1b2c3d', 'snapshot'],
      ['agentbench-snapshot:o-0a1b2c3d', 'snapshot'],
      ['agentbench-runtime-move:m', 'runtime-move'],
      ['agentbench-runtime-move:n', 'runtime-move'],
      ['sha256:u', undefined],
    ]);
  });

  it('removes only the images no remaining container uses', async () => {
    const engine = fakeEngine([image('a', { 'dev.agentbench.pid': DEAD_PID }), image('b', { 'dev.agentbench.pid': DEAD_PID })], ['agentbench-runtime-move:b']);
    const result = await removeManagedImages({ onlyOrphans: true }, { docker: engine.docker });
    expect(engine.removed).toEqual(['agentbench-runtime-move:a']);
    expect(result.removed.map((entry) => entry.reference)).toEqual(['agentbench-runtime-move:a']);
    expect(result.failed).toEqual([]);
  });
});
