import type Dockerode from 'dockerode';
import { DockerSandbox } from '../docker/docker-sandbox.js';
import { checkGvisorRegistered } from '../docker/gvisor-availability.js';
import { GVISOR_RUNTIME, GVISOR_SETUP_HINT } from '../docker/runtime-hint.js';
import type { DoctorCheck } from './doctor-check.js';

const name = 'gvisor runtime';

/**
 * Whether `--runtime runsc` can work: runsc registered with the engine (and how: with network
 * or without), then a container of `image` started under it, with its kernel shown to be gVisor's.
 * Optional: the default path needs only runc.
 */
export async function checkGvisor(docker: Dockerode, image: string): Promise<DoctorCheck> {
  const availability = await checkGvisorRegistered(docker);
  if (!availability.isRegistered) return { name, status: 'warn', detail: `not usable: ${availability.reason ?? 'not registered'}`, isRequired: false };
  const network = availability.profile?.isNetworkless === true ? 'registered without network (setup runs under runc, then moves)' : 'registered with network';
  let sandbox: DockerSandbox | undefined;
  try {
    const started = performance.now();
    sandbox = await DockerSandbox.create({ image, runtime: GVISOR_RUNTIME, labels: { 'dev.agentbench.run-id': 'doctor' } }, { docker });
    const kernel = await sandbox.exec('dmesg 2>/dev/null | head -n 1', { timeoutSec: 30 });
    const elapsed = Math.round(performance.now() - started);
    if (kernel.exitCode !== 0 || !/gVisor/.test(kernel.stdout)) {
      return { name, status: 'warn', detail: `a ${GVISOR_RUNTIME} container ran, but its kernel is not gVisor's (dmesg: ${JSON.stringify(kernel.stdout.trim().slice(0, 80))})`, isRequired: false };
    }
    return { name, status: 'ok', detail: `"${GVISOR_RUNTIME}" ${network}; container up and command run in ${elapsed} ms under gVisor`, isRequired: false };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name, status: 'warn', detail: `"${GVISOR_RUNTIME}" is registered but a container does not start under it: ${message}${message.includes('setup.sh') ? '' : `; ${GVISOR_SETUP_HINT}`}`, isRequired: false };
  } finally {
    await sandbox?.dispose().catch(() => undefined);
  }
}
