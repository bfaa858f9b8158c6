import type { Sandbox } from '../contract/sandbox.js';
import { bwrapBackend, dockerBackend, localBackend } from './builtin-backends.js';
import type { SandboxBackendDefinition } from './sandbox-backend.js';
import { SandboxBackendRegistry, type SandboxBackendInfo } from './sandbox-backend-registry.js';

let processRegistry: SandboxBackendRegistry | undefined;

/**
 * The process's one registry, made with the built-ins on first use (importing the package registers
 * nothing and loads no backend). One per copy of `@agentbench/sandbox`: a plugin hands its definition to
 * the host (e.g. the scenario runner registers a plugin's `sandboxBackend`), so its own copy does not matter.
 */
export function sandboxBackendRegistry(): SandboxBackendRegistry {
  if (processRegistry === undefined) {
    processRegistry = new SandboxBackendRegistry();
    processRegistry.register(dockerBackend);
    processRegistry.register(bwrapBackend);
    processRegistry.register(localBackend);
  }
  return processRegistry;
}

/**
 * Makes `createSandbox(definition.name, …)` work in this process; returns a function that removes the
 * registration. Refuses a name already taken (the built-ins included) and a malformed definition.
 */
export function registerSandboxBackend<Options, Made extends Sandbox>(definition: SandboxBackendDefinition<Options, Made>): () => void {
  return sandboxBackendRegistry().register(definition);
}

/** Every registered backend, the built-ins first; nothing is loaded. */
export function listSandboxBackends(): SandboxBackendInfo[] {
  return sandboxBackendRegistry().list();
}

/** The registered names (`docker`, `bwrap`, `local`, then plugins'): the `--backend` choices. */
export function sandboxBackendNames(): string[] {
  return sandboxBackendRegistry().names();
}

/** The definition registered under `name`, if any (without loading it). */
export function sandboxBackendDefinition(name: string): SandboxBackendDefinition | undefined {
  return sandboxBackendRegistry().definition(name);
}

/** Throws `SandboxError` `invalid_spec`, naming the registered backends, unless `name` is registered. */
export function assertSandboxBackendRegistered(name: string): void {
  sandboxBackendRegistry().assertRegistered(name);
}
