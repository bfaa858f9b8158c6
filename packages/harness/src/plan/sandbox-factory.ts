import {
  assertSandboxBackendRegistered,
  createSandbox,
  type CreateSandboxOptions,
  type NetworkHolderPool,
  type Sandbox,
  type SandboxPool,
  type SandboxBackendTypes,
  type SandboxSpec,
} from '@agentbench/sandbox';

/** Creates the sandbox of one attempt. The default is a hardened Docker container. */
export type SandboxFactory = (spec: SandboxSpec) => Promise<Sandbox>;

/**
 * Sandboxes of the backend registered under `backend` (`docker`, `bwrap`, `local` or a plugin's), with its
 * own options. An unknown name is refused here, when the factory is made, not at the first attempt.
 */
export function sandboxFactoryFor<Name extends keyof SandboxBackendTypes>(backend: Name, options?: CreateSandboxOptions<SandboxBackendTypes[Name]['options']>): SandboxFactory;
export function sandboxFactoryFor(backend: string, options?: CreateSandboxOptions): SandboxFactory;
export function sandboxFactoryFor(backend: string, options: CreateSandboxOptions = {}): SandboxFactory {
  assertSandboxBackendRegistered(backend);
  return (spec) => createSandbox(backend, spec, options);
}

export const createDockerSandbox: SandboxFactory = (spec) => createSandbox('docker', spec);

/**
 * Sandboxes of `factory` under the OCI runtime `runtime` (`--runtime`; e.g. `runsc`, gVisor), which
 * wins over the task's `environment.runtime`; `undefined` leaves the task's (or the engine's default).
 */
export function withRuntime(factory: SandboxFactory, runtime: string | undefined): SandboxFactory {
  if (runtime === undefined) return factory;
  return (spec) => factory({ ...spec, runtime });
}

/** Docker sandboxes that join the pool's started network holders when one is ready (a faster start). */
export function pooledDockerSandboxFactory(networkHolders: NetworkHolderPool): SandboxFactory {
  return sandboxFactoryFor('docker', { backendOptions: { networkHolders } });
}

/**
 * Sandboxes handed out by a pool of warm ones (`createSandboxPool`): a spec the pool cannot serve
 * warm, or one asked for while none is ready, is created cold by the pool. The caller disposes the pool.
 */
export function pooledSandboxFactory(pool: Pick<SandboxPool<unknown, Sandbox>, 'take'>): SandboxFactory {
  return (spec) => pool.take(spec);
}
