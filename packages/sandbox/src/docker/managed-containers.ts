import { hostname } from 'node:os';
import type Dockerode from 'dockerode';
import { toSandboxError } from './docker-errors.js';
import { ownershipOf, type ManagedOwnership } from './creator-process.js';
import { LABEL_MANAGED, LABEL_POOL, LABEL_ROLE, LABEL_RUN_ID, LABEL_TASK_ID } from '../core/engine/labels.js';
import { defaultEngine } from '../core/engine/default-engine.js';
import type { ManagedContainerFilter } from './managed-filter.js';
import { removeManagedImages, type ManagedImage } from './managed-images.js';
import { removeContainer } from './remove-container.js';

export type { ManagedContainerFilter };

export interface ManagedContainer extends ManagedOwnership {
  id: string;
  name: string;
  image: string;
  /** Engine state: running, exited, created, ... */
  state: string;
  /** `network-holder` for a network holder (see NetworkHolderPool), `pool-sandbox` for a SandboxPool's sandbox; absent for a sandbox. */
  role?: string;
}

export interface ManagedContainerOptions {
  docker?: Dockerode;
  /** How long one container's removal may take before it is reported as failed (default REMOVE_CONTAINER_TIMEOUT_MS, 60 s). */
  removeTimeoutMs?: number;
}

export interface RemovedContainers {
  removed: ManagedContainer[];
  failed: Array<{ container: ManagedContainer; message: string }>;
  /** The temporary images of gVisor moves (see runtime-move-image.ts) that matched the filter and no container used any more. */
  removedImages: ManagedImage[];
  failedImages: Array<{ image: ManagedImage; message: string }>;
}

/** Containers labelled `dev.agentbench.managed=true` that match the filter (for `ab doctor` and `ab cleanup`). */
export async function listManagedContainers(filter: ManagedContainerFilter = {}, options: ManagedContainerOptions = {}): Promise<ManagedContainer[]> {
  const docker = options.docker ?? defaultEngine();
  const labelFilters = [`${LABEL_MANAGED}=true`];
  if (filter.runId !== undefined) labelFilters.push(`${LABEL_RUN_ID}=${filter.runId}`);
  if (filter.taskId !== undefined) labelFilters.push(`${LABEL_TASK_ID}=${filter.taskId}`);
  if (filter.poolId !== undefined) labelFilters.push(`${LABEL_POOL}=${filter.poolId}`);
  let summaries: Dockerode.ContainerInfo[];
  try {
    summaries = await docker.listContainers({ all: true, filters: { label: labelFilters } });
  } catch (error) {
    throw toSandboxError(docker, error, { action: 'list containers' });
  }
  const now = Date.now();
  const thisHost = hostname();
  const containers = summaries.map((summary) => describe(summary, thisHost));
  return containers.filter((container) => {
    if (filter.olderThanMs !== undefined && now - container.createdAt.getTime() < filter.olderThanMs) return false;
    if (filter.onlyOrphans === true && !container.isOrphan) return false;
    if (filter.onlyThisProcess === true && !(container.creatorPid === process.pid && container.creatorHostname === thisHost)) return false;
    return true;
  });
}

/**
 * Force-removes the managed containers that match the filter, then the runtime moves' temporary images that match
 * it and no remaining container uses; reports each removal and failure.
 */
export async function removeManagedContainers(filter: ManagedContainerFilter = {}, options: ManagedContainerOptions = {}): Promise<RemovedContainers> {
  const docker = options.docker ?? defaultEngine();
  const containers = await listManagedContainers(filter, { docker });
  const result: RemovedContainers = { removed: [], failed: [], removedImages: [], failedImages: [] };
  await Promise.all(
    containers.map(async (container) => {
      try {
        // Gone meanwhile (its sandbox disposed it) counts as removed; a stuck engine is given up after a while.
        await removeContainer(docker, container.id, `container ${container.name}`, options.removeTimeoutMs === undefined ? {} : { timeoutMs: options.removeTimeoutMs });
        result.removed.push(container);
      } catch (error) {
        result.failed.push({ container, message: (error as Error).message });
      }
    }),
  );
  const images = await removeManagedImages(filter, { docker });
  result.removedImages = images.removed;
  result.failedImages = images.failed;
  return result;
}

function describe(summary: Dockerode.ContainerInfo, thisHost: string): ManagedContainer {
  const labels = summary.Labels ?? {};
  const container: ManagedContainer = {
    ...ownershipOf(labels, summary.Created, thisHost),
    id: summary.Id,
    name: (summary.Names?.[0] ?? '').replace(/^\//, ''),
    image: summary.Image,
    state: summary.State,
  };
  if (labels[LABEL_ROLE] !== undefined) container.role = labels[LABEL_ROLE];
  return container;
}
