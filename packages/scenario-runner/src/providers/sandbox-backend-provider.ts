import { createSandbox, type SandboxBackendDefinition } from '@agentbench/sandbox';
import type { EnvironmentProvider, EnvironmentProviderContext } from './environment-provider.js';
import { SandboxEnvironmentProvider } from './sandbox-environment-provider.js';
import { scenarioSandboxSpec } from './scenario-sandbox-spec.js';

/**
 * A plugin's environment provider that is a sandbox backend: listed under a plugin's
 * `environmentProviders`, its backend is registered in the sandbox registry when the runner loads the
 * plugin, and a scenario with `environment.type: <name>` runs on `createSandbox(<name>, …)`, with the
 * agent's tools, like the built-in `docker` and `local`.
 */
export interface SandboxBackendProviderDefinition {
  /** The backend's name, which is also the `environment.type` it serves. */
  type: string;
  description: string;
  sandboxBackend: SandboxBackendDefinition;
  create(context: EnvironmentProviderContext): Promise<EnvironmentProvider>;
}

/**
 * Offers a sandbox backend to scenarios: `definePlugin({…, environmentProviders: [sandboxBackendProvider(myBackend)]})`.
 * The plugin reference's `config` reaches the backend as its options.
 */
export function sandboxBackendProvider(backend: SandboxBackendDefinition): SandboxBackendProviderDefinition {
  return {
    type: backend.name,
    description: backend.description,
    sandboxBackend: backend,
    create: async (context) => {
      const sandbox = await createSandbox(backend.name, scenarioSandboxSpec(context), { backendOptions: context.config });
      return new SandboxEnvironmentProvider({ type: backend.name, sandbox, env: {} });
    },
  };
}

/** The sandbox backend an environment provider contribution carries, if it is one. */
export function sandboxBackendOf(provider: unknown): SandboxBackendDefinition | undefined {
  if (typeof provider !== 'object' || provider === null || !('sandboxBackend' in provider)) return undefined;
  return (provider as { sandboxBackend: SandboxBackendDefinition }).sandboxBackend;
}
