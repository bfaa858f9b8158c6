import { randomBytes } from 'node:crypto';
import type Dockerode from 'dockerode';
import type { Sandbox, SandboxSnapshot, SandboxSpec } from '../contract/sandbox.js';
import { toSandboxError } from './docker-errors.js';
import { LABEL_COMMITTED_FROM, LABEL_IMAGE_KIND, removeMoveImage } from './runtime-move-image.js';

/** Repository of the images `DockerSandbox.snapshot` commits (tag: the container's name and a nonce). */
export const SNAPSHOT_REPOSITORY = 'agentbench-snapshot';

/**
 * Commits a sandbox's container to an image: its file system now, without the bind-mounted
 * workspace and the /tmp tmpfs. The container is paused while it is read, so no process of it
 * changes what is kept; an image is immutable, so nothing the container does afterwards reaches
 * it. It keeps the container's labels (managed, run, task, creator pid and host) and gets
 * `committed-from` and `image-kind=snapshot`, so a leftover image is found and removed by
 * `removeManagedImages`, as the runtime moves' are, and named as a snapshot.
 */
export async function commitSnapshot(
  docker: Dockerode,
  container: Dockerode.Container,
  containerName: string,
  start: (spec: SandboxSpec) => Promise<Sandbox>,
): Promise<SandboxSnapshot> {
  const tag = `${containerName}-${randomBytes(4).toString('hex')}`;
  try {
    await container.commit({ repo: SNAPSHOT_REPOSITORY, tag, pause: true, changes: `LABEL ${LABEL_COMMITTED_FROM}=${containerName} ${LABEL_IMAGE_KIND}=snapshot` });
  } catch (error) {
    throw toSandboxError(docker, error, { action: `commit the container ${containerName} for a snapshot` });
  }
  const image = `${SNAPSHOT_REPOSITORY}:${tag}`;
  let removing: Promise<void> | undefined;
  return {
    image,
    createSandbox: (spec) => start({ ...spec, image }),
    dispose: () => (removing ??= removeMoveImage(docker, image)),
  };
}
