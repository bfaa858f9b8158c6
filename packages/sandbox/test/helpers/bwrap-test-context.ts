import Dockerode from 'dockerode';
import { isBwrapAvailable } from '../../src/bwrap/bwrap-availability.js';
import { ensureRootfs } from '../../src/bwrap/ensure-rootfs.js';
import { skipUnlessRequired } from '../../../../test-support/skip-unless-required.js';

export const RUNNER_IMAGE = process.env['AGENTBENCH_RUNNER_IMAGE'] ?? 'agentbench/py-runner:0.1.0';

export interface BwrapTestContext {
  /** Why the file's tests are skipped (no usable bwrap, no rootfs); undefined when they run. */
  skipReason: string | undefined;
  /** The runner image's root file system (`AGENTBENCH_TEST_ROOTFS`, or exported by `ensureRootfs`); '' when skipped. */
  rootfs: string;
}

/**
 * Call once at the top of a `*.bwrap.test.ts` file (top-level await). Without a usable
 * bwrap or a rootfs (which needs Docker and the runner image once) the file's tests are
 * skipped with the reason printed, unless AGENTBENCH_REQUIRE_BWRAP=1 (CI), which turns
 * that into a failure.
 */
export async function useBwrapTestContext(fileName: string): Promise<BwrapTestContext> {
  const { skipReason, rootfs = '' } = await findRootfs();
  return { skipReason: skipUnlessRequired(fileName, skipReason, 'AGENTBENCH_REQUIRE_BWRAP'), rootfs };
}

async function findRootfs(): Promise<{ skipReason?: string; rootfs?: string }> {
  const availability = await isBwrapAvailable();
  if (!availability.isAvailable) return { skipReason: availability.reason };
  if (process.env['AGENTBENCH_TEST_ROOTFS'] !== undefined) return { rootfs: process.env['AGENTBENCH_TEST_ROOTFS'] };
  const docker = new Dockerode();
  try {
    await docker.ping();
  } catch (error) {
    return { skipReason: `no rootfs: the Docker engine is not reachable to export ${RUNNER_IMAGE} (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  try {
    await docker.getImage(RUNNER_IMAGE).inspect();
  } catch {
    return { skipReason: `no rootfs: runner image ${RUNNER_IMAGE} is missing (build it with docker/py-runner/build-offline.sh)` };
  }
  return { rootfs: await ensureRootfs({ image: RUNNER_IMAGE, docker }) };
}
