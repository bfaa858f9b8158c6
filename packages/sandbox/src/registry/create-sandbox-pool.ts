import { SandboxError } from '../contract/sandbox-error.js';
import type { DockerSandboxPool, DockerSandboxPoolOptions } from '../pool/docker-sandbox-pool.js';
import { sandboxBackendNames } from './default-registry.js';

/** Backends that can keep sandboxes warm, with their pool's options and type. */
export interface SandboxPoolTypes {
  docker: { options: DockerSandboxPoolOptions; pool: DockerSandboxPool };
}

/**
 * A pool of started sandboxes of the backend `name` (docker only for now): `await pool.take(spec)`
 * hands one out with the spec's workspace put in, `pool.dispose()` removes the warm ones. The
 * backend's code is imported on first use, as with `createSandbox`.
 */
export async function createSandboxPool<Name extends keyof SandboxPoolTypes>(name: Name, options?: SandboxPoolTypes[Name]['options']): Promise<SandboxPoolTypes[Name]['pool']> {
  if (name !== 'docker') {
    const known = sandboxBackendNames().includes(name) ? `backend "${name}" has no pool` : `unknown sandbox backend "${name}"`;
    throw new SandboxError('invalid_spec', `createSandboxPool: ${known}; pools exist for: docker`, { subject: String(name) });
  }
  const { createDockerSandboxPool } = await import('../pool/docker-sandbox-pool.js');
  return createDockerSandboxPool(options);
}
