import { instantiatePluginServices } from '../../plugins/runner-plugins.js';
import { createDatabaseService, ScenarioDatabase } from '../../services/database-service.js';
import { startServicesEndpoint, type ServicesEndpoint } from '../../services/services-endpoint.js';
import type { ScenarioRun } from './scenario-run.js';

/** Services: the scenario's database, the plugins' services, and the endpoint agents reach them through. */
export async function servicesStage(run: ScenarioRun): Promise<ServicesEndpoint> {
  const { definition, resources } = run;
  if (definition.setup?.database !== undefined) {
    const database = await ScenarioDatabase.create();
    resources.services.register(createDatabaseService(database));
    database.seed(definition.setup.database);
  }
  for (const { definition: service, origin } of await instantiatePluginServices(run.plugins)) resources.services.register(service, origin);
  const endpoint = await startServicesEndpoint(run.gateway, { caller: run.agentChoice.spec.type === 'llm' ? 'external' : `${run.agentChoice.spec.type}-agent` });
  resources.endpoint = endpoint;
  return endpoint;
}
