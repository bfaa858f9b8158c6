import type Dockerode from 'dockerode';
import { SandboxError } from '../errors/sandbox-error.js';
import { engineMessage, isNotFound, toSandboxError } from './docker-errors.js';

/**
 * How long a removal may take before it is given up: a forced removal stops the container with
 * SIGKILL, so an engine that has not answered by then is stuck, and a cleanup or a dispose must
 * not wait for it forever.
 */
export const REMOVE_CONTAINER_TIMEOUT_MS = 60_000;

/**
 * Force-removes a container and its anonymous volumes. One already gone, or whose removal
 * is already under way, counts as removed; any other failure, or no answer within `timeoutMs`,
 * is a SandboxError naming `what`.
 */
export async function removeContainer(docker: Dockerode, containerId: string, what: string, options: { timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? REMOVE_CONTAINER_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    await docker.getContainer(containerId).remove({ force: true, v: true, abortSignal: deadline });
  } catch (error) {
    if (isNotFound(error) || /removal of container .* is already in progress/i.test(engineMessage(error))) return;
    if (deadline.aborted) {
      throw new SandboxError('engine_unavailable', `the Docker engine did not remove ${what} within ${timeoutMs / 1000} s; it may be stuck (\`ab cleanup\` removes the container later)`, { cause: error });
    }
    throw toSandboxError(docker, error, { action: `remove ${what}` });
  }
}
