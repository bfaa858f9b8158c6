import { hostname } from 'node:os';
import type Dockerode from 'dockerode';
import { ownershipOf, type ManagedOwnership } from './creator-process.js';
import { defaultEngine } from '../core/engine/default-engine.js';
import { engineMessage, isNotFound, toSandboxError } from './docker-errors.js';
import { LABEL_MANAGED, LABEL_POOL, LABEL_RUN_ID, LABEL_TASK_ID } from '../core/engine/labels.js';
import type { ManagedContainerFilter } from './managed-filter.js';
import { LABEL_COMMITTED_FROM, LABEL_IMAGE_KIND, RUNTIME_MOVE_REPOSITORY } from './runtime-move-image.js';
import { SNAPSHOT_REPOSITORY } from './snapshot-image.js';

/**
 * A temporary image we committed from a container: a runtime move's (a gVisor sandbox's setup
 * container, see runtime-move-image.ts) or a snapshot's (`Sandbox.snapshot`, see snapshot-image.ts).
 * It carries the committed container's labels: run, task, creator pid and host.
 */
export interface ManagedImage extends ManagedOwnership {
  id: string;
  /** `agentbench-runtime-move:<setup container name>` or `agentbench-snapshot:<container name>-<nonce>`; the id when the tag is gone. */
  reference: string;
  /** The container it was committed from. */
  committedFrom: string;
  /** Why it was made: its `image-kind` label, else (an image committed before that label) its repository; absent when neither tells. */
  kind?: 'runtime-move' | 'snapshot';
}

export interface RemovedImages {
  removed: ManagedImage[];
  failed: Array<{ image: ManagedImage; message: string }>;
}

/** Our temporary images (runtime moves', snapshots') that match the filter (the same filter as `listManagedContainers`). */
export async function listManagedImages(filter: ManagedContainerFilter = {}, options: { docker?: Dockerode } = {}): Promise<ManagedImage[]> {
  const docker = options.docker ?? defaultEngine();
  const labelFilters = [`${LABEL_MANAGED}=true`, LABEL_COMMITTED_FROM];
  if (filter.runId !== undefined) labelFilters.push(`${LABEL_RUN_ID}=${filter.runId}`);
  if (filter.taskId !== undefined) labelFilters.push(`${LABEL_TASK_ID}=${filter.taskId}`);
  if (filter.poolId !== undefined) labelFilters.push(`${LABEL_POOL}=${filter.poolId}`);
  let summaries: Dockerode.ImageInfo[];
  try {
    summaries = await docker.listImages({ filters: { label: labelFilters } });
  } catch (error) {
    throw toSandboxError(docker, error, { action: 'list images' });
  }
  const now = Date.now();
  const thisHost = hostname();
  return summaries
    .map((summary) => describe(summary, thisHost))
    .filter((image) => {
      if (filter.olderThanMs !== undefined && now - image.createdAt.getTime() < filter.olderThanMs) return false;
      if (filter.onlyOrphans === true && !image.isOrphan) return false;
      if (filter.onlyThisProcess === true && !(image.creatorPid === process.pid && image.creatorHostname === thisHost)) return false;
      return true;
    });
}

/**
 * Removes the matching images that no container uses any more (a live sandbox's gVisor container is made from
 * its image: that one stays until the sandbox, or the container sweep, removes the container).
 */
export async function removeManagedImages(filter: ManagedContainerFilter = {}, options: { docker?: Dockerode } = {}): Promise<RemovedImages> {
  const docker = options.docker ?? defaultEngine();
  const images = await listManagedImages(filter, { docker });
  const result: RemovedImages = { removed: [], failed: [] };
  if (images.length === 0) return result;
  let inUse: Set<string>;
  try {
    inUse = new Set((await docker.listContainers({ all: true })).flatMap((container) => [container.ImageID, container.Image]));
  } catch (error) {
    throw toSandboxError(docker, error, { action: 'list containers' });
  }
  await Promise.all(
    images
      .filter((image) => !inUse.has(image.id) && !inUse.has(image.reference))
      .map(async (image) => {
        try {
          await docker.getImage(image.reference).remove({ force: true });
          result.removed.push(image);
        } catch (error) {
          // Gone meanwhile (its sandbox's dispose removed it): removed all the same.
          if (isNotFound(error) || /no such image/i.test(engineMessage(error))) result.removed.push(image);
          else result.failed.push({ image, message: engineMessage(error) });
        }
      }),
  );
  return result;
}

function describe(summary: Dockerode.ImageInfo, thisHost: string): ManagedImage {
  const labels = summary.Labels ?? {};
  const tag = (summary.RepoTags ?? []).find((candidate) => candidate !== '<none>:<none>');
  const reference = tag ?? summary.Id;
  const kind = imageKindOf(labels[LABEL_IMAGE_KIND], reference);
  return { ...ownershipOf(labels, summary.Created, thisHost), id: summary.Id, reference, committedFrom: labels[LABEL_COMMITTED_FROM] ?? '', ...(kind === undefined ? {} : { kind }) };
}

function imageKindOf(label: string | undefined, reference: string): ManagedImage['kind'] {
  if (label === 'runtime-move' || label === 'snapshot') return label;
  if (reference.startsWith(`${RUNTIME_MOVE_REPOSITORY}:`)) return 'runtime-move';
  if (reference.startsWith(`${SNAPSHOT_REPOSITORY}:`)) return 'snapshot';
  return undefined;
}
