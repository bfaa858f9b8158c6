import type { Sandbox, SandboxSpec } from '../contract/sandbox.js';

/**
 * What a backend promises about the sandboxes it makes. A conformance suite checks these claims;
 * callers that need isolation (anything running an agent's commands) can refuse a backend that makes none.
 */
export interface SandboxBackendPromises {
  /**
   * What keeps a command away from the host: `none` (a host process as this user: `local`),
   * `namespaces` (Linux namespaces, no daemon: `bwrap`), `container` (a container engine: `docker`),
   * `virtual-machine` (a micro-VM or a remote machine).
   */
  isolation: 'none' | 'namespaces' | 'container' | 'virtual-machine';
  /** Whether `hasNetwork: false` (and `setNetwork(false)`) leaves commands without any network. */
  cutsNetwork: boolean;
  /** How `SandboxSpec.limits` are applied: always, where the host allows it (e.g. writable cgroups), or not at all. */
  limits: 'enforced' | 'best-effort' | 'ignored';
}

/** A loaded backend: the code that makes its sandboxes. */
export interface SandboxBackend<Options = unknown, Made extends Sandbox = Sandbox> {
  /** `options` are the backend's own (`CreateSandboxOptions.backendOptions`), undefined when none were given. */
  create(spec: SandboxSpec, options: Options | undefined): Promise<Made>;
}

/**
 * A backend as the registry knows it before anything of it is loaded: a name, what it promises,
 * and a loader (`() => import('./my-backend.js')`) called on the first `createSandbox` by that name.
 */
export interface SandboxBackendDefinition<Options = unknown, Made extends Sandbox = Sandbox> {
  /** A short identifier (`SANDBOX_BACKEND_NAME_PATTERN`): `docker`, `bwrap`, `local`, `e2b`. */
  name: string;
  /** One line for `ab doctor` and `--backend` help. */
  description: string;
  /** Omitted: the backend promises nothing, and is treated as giving no isolation. */
  promises?: SandboxBackendPromises;
  load(): Promise<SandboxBackend<Options, Made>>;
}

/** Identity function that types a definition (and its options) where it is written. */
export function defineSandboxBackend<Options, Made extends Sandbox = Sandbox>(
  definition: SandboxBackendDefinition<Options, Made>,
): SandboxBackendDefinition<Options, Made> {
  return definition;
}
