import { createSandbox, DEFAULT_DOCKER_IMAGE } from '@agentbench/sandbox';
import type { EnvironmentProviderFactory } from './environment-provider.js';
import { SandboxEnvironmentProvider } from './sandbox-environment-provider.js';
import { scenarioSandboxLabels, scenarioSandboxSpec } from './scenario-sandbox-spec.js';

/** Where the host's node binary lands in a container whose image has none. */
export const CONTAINER_NODE_PATH = '/tmp/agentbench-node/node';

/** `local`: the registry's local backend on a fresh temporary folder (no isolation); JavaScript runs with this process's node. */
export const localProviderFactory: EnvironmentProviderFactory = async (context) => {
  const sandbox = await createSandbox('local', { env: context.env, labels: scenarioSandboxLabels(context) }, { backendOptions: { isWarningSilenced: true } });
  return new SandboxEnvironmentProvider({ type: 'local', sandbox, env: {}, nodeCommand: async () => process.execPath });
};

/**
 * `docker`: the registry's hardened docker backend (`environment.image`, default the runner image; network none
 * unless `environment.network: bridge`). The runner image has no node: the first JavaScript or
 * TypeScript step copies this host's node binary into the container's /tmp (once per run).
 */
export const dockerProviderFactory: EnvironmentProviderFactory = async (context) => {
  const { environment } = context;
  const spec = { ...scenarioSandboxSpec(context), image: environment.image ?? DEFAULT_DOCKER_IMAGE };
  const sandbox =
    context.sandboxPool !== undefined
      ? await context.sandboxPool.take(spec)
      : await createSandbox('docker', spec, context.networkHolders === undefined ? {} : { backendOptions: { networkHolders: context.networkHolders } });
  let node: Promise<string | undefined> | undefined;
  const nodeCommand = (): Promise<string | undefined> => {
    node ??= (async () => {
      const found = await sandbox.exec(['/bin/sh', '-c', 'command -v node'], { timeoutSec: 30 });
      if (found.exitCode === 0 && found.stdout.trim() !== '') return found.stdout.trim();
      // The image has no node: bring the host's (same architecture, glibc) in through the workspace.
      const staging = '.agentbench/node';
      await sandbox.copyIn(process.execPath, staging);
      const moved = await sandbox.exec(['/bin/sh', '-c', `mkdir -p /tmp/agentbench-node && mv ${staging} ${CONTAINER_NODE_PATH} && rmdir .agentbench 2>/dev/null; ${CONTAINER_NODE_PATH} --version`], {
        timeoutSec: 60,
      });
      if (moved.exitCode !== 0) {
        context.onNote?.(`cannot run the host's node in image ${environment.image ?? DEFAULT_DOCKER_IMAGE}: ${moved.stderr.trim() || `exit code ${moved.exitCode}`}`);
        return undefined;
      }
      context.onNote?.(`image ${environment.image ?? DEFAULT_DOCKER_IMAGE} has no node: copied the host's node ${moved.stdout.trim()} to ${CONTAINER_NODE_PATH}`);
      return CONTAINER_NODE_PATH;
    })();
    return node;
  };
  return new SandboxEnvironmentProvider({ type: 'docker', sandbox, env: {}, nodeCommand });
};

export const BUILTIN_PROVIDERS: Readonly<Record<string, EnvironmentProviderFactory>> = Object.freeze({
  local: localProviderFactory,
  docker: dockerProviderFactory,
});

/** Plugins known to provide a type, named in the "not installed" message. */
export const KNOWN_PROVIDER_PLUGINS: Readonly<Record<string, string>> = Object.freeze({
  e2b: '@elizaos/plugin-e2b',
});
