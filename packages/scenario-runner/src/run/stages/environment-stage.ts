import { createToolSet } from '@agentbench/tools';
import { ScenarioRunnerError } from '../../errors/scenario-runner-error.js';
import { createPluginProvider } from '../../plugins/runner-plugins.js';
import { BUILTIN_PROVIDERS } from '../../providers/builtin-providers.js';
import type { EnvironmentProvider } from '../../providers/environment-provider.js';
import { TOOLS_SERVICE_NAME } from '../../services/service-gateway.js';
import { SERVICES_URL_VARIABLE, type ServicesEndpoint } from '../../services/services-endpoint.js';
import { createToolsService } from '../../services/tools-service.js';
import { providerNotInstalledError } from './load-stage.js';
import type { ScenarioRun } from './scenario-run.js';

/**
 * The environment: the provider started (built-in or a plugin's), the agent's tools on its sandbox,
 * the mocks checked against the services now known, the virtual files written.
 */
export async function environmentStage(run: ScenarioRun, endpoint: ServicesEndpoint): Promise<EnvironmentProvider> {
  const { definition, loaded, resources, options, providerType } = run;
  const providerContext = {
    environment: definition.environment,
    scenarioDir: loaded.dir,
    scenarioName: definition.name,
    runId: run.runId,
    config: {},
    env: { [SERVICES_URL_VARIABLE]: endpoint.url },
    onNote: (message: string) => run.emit({ type: 'note', message }),
    ...(options.networkHolders === undefined ? {} : { networkHolders: options.networkHolders }),
    ...(options.sandboxPool === undefined ? {} : { sandboxPool: options.sandboxPool }),
  };
  const builtin = BUILTIN_PROVIDERS[providerType];
  resources.provider = builtin !== undefined ? await builtin(providerContext) : await createPluginProvider(run.plugins, providerType, providerContext);
  if (resources.provider === undefined) throw providerNotInstalledError(providerType, loaded.file);
  const provider = resources.provider;
  if (provider.sandbox !== undefined && !resources.services.hasService(TOOLS_SERVICE_NAME)) {
    resources.services.register(createToolsService(createToolSet({ sandbox: provider.sandbox })));
  }
  const mockProblems = run.mocks.configurationProblems(resources.services);
  if (mockProblems.length > 0) {
    throw new ScenarioRunnerError('mock_configuration', `${loaded.file}: ${mockProblems.length === 1 ? 'a mock is' : `${mockProblems.length} mocks are`} not valid:\n  ${mockProblems.join('\n  ')}`);
  }
  const virtualFiles = Object.entries(definition.setup?.virtual_fs ?? {}).map(([filePath, content]) => ({ type: 'write' as const, path: filePath, content }));
  await provider.setup(virtualFiles);
  return provider;
}
