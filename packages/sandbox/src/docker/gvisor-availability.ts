import { execFile } from 'node:child_process';
import type Dockerode from 'dockerode';
import { SandboxError } from '../contract/sandbox-error.js';
import { resolveRuntime, type RuntimeProfile } from './container-runtime.js';
import { GVISOR_RUNTIME, GVISOR_SETUP_HINT } from './runtime-hint.js';

export interface GvisorAvailability {
  /** The engine lists the runtime (a container may still fail to start: `ab doctor` tries one). */
  isRegistered: boolean;
  /** Why it is not registered, with the fix; undefined when it is. */
  reason: string | undefined;
  /** The engine's entry, when registered. */
  profile?: RuntimeProfile;
}

/**
 * Whether the engine can run containers under gVisor: runsc installed on this host (for a
 * clearer reason) and registered with the engine as `runtime` (default `runsc`).
 */
export async function checkGvisorRegistered(docker: Dockerode, runtime: string = GVISOR_RUNTIME): Promise<GvisorAvailability> {
  try {
    const profile = await resolveRuntime(docker, runtime);
    return { isRegistered: true, reason: undefined, profile };
  } catch (error) {
    const installed = await isOnPath('runsc');
    const detail = SandboxError.isInstance(error) && error.kind === 'runtime_unavailable' && !installed ? `runsc is not installed and ${error.message}` : (error as Error).message;
    return { isRegistered: false, reason: detail.includes('setup.sh') ? detail : `${detail}; ${GVISOR_SETUP_HINT}` };
  }
}

function isOnPath(command: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', `command -v ${command}`], (error) => resolve(error === null));
  });
}
