import type Dockerode from 'dockerode';
import { engineMessage, isNotFound, toSandboxError } from './docker-errors.js';

/** Repository of the temporary images a runtime move commits (tag: the setup container's name). */
export const RUNTIME_MOVE_REPOSITORY = 'agentbench-runtime-move';
/** Label on those images (and so on the containers made from them): the container committed. */
export const LABEL_COMMITTED_FROM = 'dev.agentbench.committed-from';
/**
 * Label on every image we commit: why it was made, `runtime-move` (here) or `snapshot`
 * (snapshot-image.ts), so a leftover one can be named for what it is (`ab cleanup`, `ab doctor`).
 */
export const LABEL_IMAGE_KIND = 'dev.agentbench.image-kind';

/**
 * Commits a sandbox's setup container to a temporary image. It keeps the container's labels
 * (managed, run, task, pid, host), so a leftover image is ours to find, plus the committed
 * container's name and its kind. Bind mounts (a mounted workspace) and the /tmp tmpfs are not in it.
 */
export async function commitForRuntimeMove(docker: Dockerode, container: Dockerode.Container, containerName: string): Promise<string> {
  const reference = `${RUNTIME_MOVE_REPOSITORY}:${containerName}`;
  try {
    await container.commit({ repo: RUNTIME_MOVE_REPOSITORY, tag: containerName, pause: true, changes: `LABEL ${LABEL_COMMITTED_FROM}=${containerName} ${LABEL_IMAGE_KIND}=runtime-move` });
  } catch (error) {
    throw toSandboxError(docker, error, { action: `commit the setup container ${containerName} for its runtime move` });
  }
  return reference;
}

/** Removes a runtime move's image; one already gone counts as removed. */
export async function removeMoveImage(docker: Dockerode, reference: string): Promise<void> {
  try {
    await docker.getImage(reference).remove({ force: true });
  } catch (error) {
    if (isNotFound(error) || /no such image/i.test(engineMessage(error))) return;
    throw toSandboxError(docker, error, { action: `remove the runtime move image ${reference}` });
  }
}
