import type Dockerode from 'dockerode';
import { SandboxError } from '../contract/sandbox-error.js';
import { engineMessage, isNotFound, toSandboxError } from './docker-errors.js';
import { withEngineDeadline } from './engine-deadline.js';

/**
 * How long a removal may take before it is given up: a forced removal stops the container with
 * SIGKILL, so an engine that has not answered by then is stuck, and a cleanup or a dispose must
 * not wait for it forever (`ab cleanup` removes the container later).
 */
export const REMOVE_CONTAINER_TIMEOUT_MS = 60_000;

/**
 * Force-removes a container and its anonymous volumes. One already gone, or whose removal
 * is already under way, counts as removed; any other failure, or no answer within `timeoutMs`,
 * is a SandboxError naming `what`.
 */
export async function removeContainer(docker: Dockerode, containerId: string, what: string, options: { timeoutMs?: number } = {}): Promise<void> {
  try {
    await withEngineDeadline(`remove ${what}`, options.timeoutMs ?? REMOVE_CONTAINER_TIMEOUT_MS, (abortSignal) =>
      docker.getContainer(containerId).remove({ force: true, v: true, abortSignal }),
    );
  } catch (error) {
    if (SandboxError.isInstance(error)) throw error;
    if (isNotFound(error) || /removal of container .* is already in progress/i.test(engineMessage(error))) return;
    throw toSandboxError(docker, error, { action: `remove ${what}` });
  }
}
