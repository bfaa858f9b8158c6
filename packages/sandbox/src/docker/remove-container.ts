import type Dockerode from 'dockerode';
import { engineMessage, isNotFound, toSandboxError } from './docker-errors.js';

/**
 * Force-removes a container and its anonymous volumes. One already gone, or whose removal
 * is already under way, counts as removed; any other failure is a SandboxError naming `what`.
 */
export async function removeContainer(docker: Dockerode, containerId: string, what: string): Promise<void> {
  try {
    await docker.getContainer(containerId).remove({ force: true, v: true });
  } catch (error) {
    if (isNotFound(error) || /removal of container .* is already in progress/i.test(engineMessage(error))) return;
    throw toSandboxError(docker, error, { action: `remove ${what}` });
  }
}
