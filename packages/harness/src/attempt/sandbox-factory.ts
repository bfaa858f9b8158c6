import { DockerSandbox, type NetworkHolderPool, type Sandbox, type SandboxSpec } from '@agentbench/sandbox';

/** Creates the sandbox of one attempt. The default is a hardened Docker container. */
export type SandboxFactory = (spec: SandboxSpec) => Promise<Sandbox>;

export const createDockerSandbox: SandboxFactory = (spec) => DockerSandbox.create(spec);

/** Docker sandboxes that join the pool's started network holders when one is ready (a faster start). */
export function pooledDockerSandboxFactory(networkHolders: NetworkHolderPool): SandboxFactory {
  return (spec) => DockerSandbox.create(spec, { networkHolders });
}
