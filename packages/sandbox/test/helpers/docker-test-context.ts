import Dockerode from 'dockerode';
import { ulid } from 'ulid';
import { afterAll, expect } from 'vitest';
import { skipUnlessRequired } from '../../../../test-support/skip-unless-required.js';
import { DockerSandbox } from '../../src/docker/docker-sandbox.js';
import { listManagedContainers, removeManagedContainers } from '../../src/docker/managed-containers.js';
import type { SandboxSpec } from '../../src/contract/sandbox.js';

export const RUNNER_IMAGE = process.env['AGENTBENCH_RUNNER_IMAGE'] ?? 'agentbench/py-runner:0.1.0';

export interface DockerTestContext {
  docker: Dockerode;
  /** Label of every container this test file creates; the file ends by checking none is left. */
  runId: string;
  /** Why the file's tests are skipped (no engine, no image); undefined when they run. */
  skipReason: string | undefined;
  /** Creates a sandbox from the runner image labelled with this file's run id. */
  createSandbox(spec?: SandboxSpec, taskId?: string): Promise<DockerSandbox>;
}

/**
 * Call once at the top of a `*.docker.test.ts` file (top-level await). Without an
 * engine or the runner image the file's tests are skipped with the reason printed,
 * unless AGENTBENCH_REQUIRE_DOCKER=1, which turns that into a failure. The file ends
 * with an assertion that no container labelled with its run id is left (any found is
 * removed, and the run fails).
 */
export async function useDockerTestContext(fileName: string): Promise<DockerTestContext> {
  const docker = new Dockerode();
  const runId = `test-${ulid().toLowerCase()}`;
  let skipReason: string | undefined;
  try {
    await docker.ping();
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    skipReason = `Docker engine not reachable (${failure.code ?? failure.message})`;
  }
  if (skipReason === undefined) {
    try {
      await docker.getImage(RUNNER_IMAGE).inspect();
    } catch {
      skipReason = `runner image ${RUNNER_IMAGE} is missing (build it with docker/py-runner/build-offline.sh)`;
    }
  }
  if (skipUnlessRequired(fileName, skipReason, 'AGENTBENCH_REQUIRE_DOCKER') === undefined) {
    afterAll(async () => {
      const left = await listManagedContainers({ runId }, { docker });
      if (left.length > 0) await removeManagedContainers({ runId }, { docker });
      expect(left.map((container) => `${container.name} (${container.taskId ?? '?'})`), 'containers left behind by this test file').toEqual([]);
    });
  }
  return {
    docker,
    runId,
    skipReason,
    createSandbox: (spec = {}, taskId = 'test') =>
      DockerSandbox.create({ image: RUNNER_IMAGE, ...spec, labels: { runId, taskId, ...spec.labels } }, { docker }),
  };
}
