import type { Sandbox, SandboxSpec } from '../contract/sandbox.js';
import type { SandboxBackendTypes } from './builtin-backends.js';
import { sandboxBackendRegistry } from './default-registry.js';

export interface CreateSandboxOptions<BackendOptions = unknown> {
  /**
   * The backend's own options: docker `{docker, networkHolders, onDebug, …}` (`DockerSandboxOptions`),
   * bwrap `{docker, shouldUseCgroups, …}` (`BwrapSandboxOptions`), local `{isWarningSilenced}`.
   */
  backendOptions?: BackendOptions;
}

/**
 * Creates a sandbox on the backend registered under `name`: `docker` (hardened container; the default
 * everywhere above), `bwrap` (namespaces, no daemon; needs `spec.rootfs` or `spec.image`), `local`
 * (no isolation; only when asked for by name), or one a plugin registered. The backend's code is
 * imported on its first use. An unknown name is a `SandboxError` `invalid_spec` listing the registered names.
 */
export function createSandbox<Name extends keyof SandboxBackendTypes>(
  name: Name,
  spec?: SandboxSpec,
  options?: CreateSandboxOptions<SandboxBackendTypes[Name]['options']>,
): Promise<SandboxBackendTypes[Name]['sandbox']>;
export function createSandbox(name: string, spec?: SandboxSpec, options?: CreateSandboxOptions): Promise<Sandbox>;
export function createSandbox(name: string, spec: SandboxSpec = {}, options: CreateSandboxOptions = {}): Promise<Sandbox> {
  return sandboxBackendRegistry().create(name, spec, options.backendOptions);
}
