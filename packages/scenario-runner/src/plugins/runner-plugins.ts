import {
  loadPlugins,
  resolvePlugins,
  type LoadedPluginSet,
  type PluginLoadOptions,
  type PluginResolution,
} from '@agentbench/evaluators';
import { registerSandboxBackend, sandboxBackendDefinition } from '@agentbench/sandbox';
import type { PluginReference } from '@agentbench/schemas';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import type { EnvironmentProvider, EnvironmentProviderContext } from '../providers/environment-provider.js';
import type { ServiceDefinition, ServiceMethodDefinition } from '../services/service-definition.js';
import type { CustomTerminationCondition } from '../conversation/termination.js';
import { BUILTIN_PROVIDERS } from '../providers/builtin-providers.js';
import { sandboxBackendOf } from '../providers/sandbox-backend-provider.js';
import { isRecord } from '@agentbench/helpers';

export type { PluginResolution };

/** Where plugin references resolve: the scenario's folder, `--plugin` values and the config file. */
export interface RunnerPluginOptions {
  scenarioFile: string;
  scenarioDir: string;
  /** `--plugin` references. */
  fromCli?: readonly string[];
  /** Folder of `agentbench.config.*` and CLI references (default: the process's). */
  cwd?: string;
  /** A config file to read instead of looking in `cwd`, or false for none. */
  configFile?: string | false;
}

function loadOptions(options: RunnerPluginOptions): PluginLoadOptions {
  return {
    baseDir: options.scenarioDir,
    scenarioFile: options.scenarioFile,
    ...(options.fromCli === undefined ? {} : { fromCli: options.fromCli }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    reservedEnvironmentProviderTypes: Object.keys(BUILTIN_PROVIDERS),
  };
}

/** Where each plugin resolves, without importing any (for plans): missing ones are `not_installed`, not errors. */
export function resolveRunnerPlugins(references: readonly PluginReference[], options: RunnerPluginOptions): Promise<PluginResolution[]> {
  return resolvePlugins(references, loadOptions(options));
}

/**
 * Imports every enabled plugin; any that is missing or broken stops the run with the evaluators' error.
 * The sandbox backends plugins offer (`sandboxBackendProvider`) are registered in the sandbox registry.
 */
export async function loadRunnerPlugins(references: readonly PluginReference[], options: RunnerPluginOptions): Promise<LoadedPluginSet> {
  const set = await loadPlugins(references, loadOptions(options));
  registerPluginSandboxBackends(set);
  return set;
}

/**
 * Registers each plugin's sandbox backend once per process: loading the same plugin again (the next
 * scenario of a matrix) finds its own definition registered and leaves it; another backend under the
 * same name (a built-in's, another plugin's) stops the run.
 */
export function registerPluginSandboxBackends(set: LoadedPluginSet): void {
  for (const [type, { item, plugin }] of set.environmentProviders) {
    const backend = sandboxBackendOf(item);
    if (backend === undefined) continue;
    const origin = `plugin ${plugin.name} ${plugin.version}`;
    const name: unknown = isRecord(backend) ? backend['name'] : undefined;
    if (name !== type) {
      throw new ScenarioRunnerError('plugin_load_failed', `${origin}: environment provider ${JSON.stringify(type)}: its sandboxBackend is named ${JSON.stringify(name)}; a sandbox backend serves the environment type of its own name (use sandboxBackendProvider(backend))`);
    }
    const registered = sandboxBackendDefinition(type);
    if (registered === backend) continue;
    if (registered !== undefined) {
      throw new ScenarioRunnerError('plugin_load_failed', `${origin}: sandbox backend ${JSON.stringify(type)} is already registered in this process (${registered.description}); a plugin's backend needs a name of its own`);
    }
    try {
      registerSandboxBackend(backend);
    } catch (error) {
      throw new ScenarioRunnerError('plugin_load_failed', `${origin}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}

/**
 * A plugin service's instance, from its `create(config)`: `{methods: {name: {description?, parameters?,
 * handler?}}, dispose?}`, or, shorter, an object whose functions are the methods (called with the named
 * input and the whole call).
 */
export async function instantiatePluginServices(set: LoadedPluginSet): Promise<{ definition: ServiceDefinition; origin: string }[]> {
  const services: { definition: ServiceDefinition; origin: string }[] = [];
  for (const [name, { item, plugin }] of set.services) {
    const origin = `plugin ${plugin.name} ${plugin.version}`;
    let created: unknown;
    try {
      created = await item.create(plugin.config);
    } catch (error) {
      throw new ScenarioRunnerError('plugin_load_failed', `${origin}: creating service ${JSON.stringify(name)} threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (!isRecord(created)) throw new ScenarioRunnerError('plugin_load_failed', `${origin}: service ${JSON.stringify(name)}: create() must return {methods: {...}}, found ${created === null ? 'null' : typeof created}`);
    const methods: Record<string, ServiceMethodDefinition> = {};
    if (isRecord(created['methods'])) {
      for (const [method, definition] of Object.entries(created['methods'])) {
        if (!isRecord(definition)) throw new ScenarioRunnerError('plugin_load_failed', `${origin}: service ${name}: methods.${method}: expected {description?, parameters?, handler?}`);
        methods[method] = definition as ServiceMethodDefinition;
      }
    } else {
      for (const [method, value] of Object.entries(created)) {
        if (typeof value !== 'function' || method === 'dispose') continue;
        const fn = value as (input: Record<string, unknown>, call: unknown) => unknown;
        methods[method] = { handler: (call) => fn.call(created, call.input, call) };
      }
    }
    const dispose = created['dispose'];
    services.push({
      definition: {
        name,
        ...(item.description === undefined ? {} : { description: item.description }),
        methods,
        ...(typeof dispose === 'function' ? { dispose: () => (dispose as () => unknown).call(created) as void | Promise<void> } : {}),
      },
      origin,
    });
  }
  return services;
}

/** The plugin termination conditions by name. */
export function customTerminationConditions(set: LoadedPluginSet | undefined): Map<string, CustomTerminationCondition> {
  const conditions = new Map<string, CustomTerminationCondition>();
  for (const [name, { item, plugin }] of set?.terminationConditions ?? []) conditions.set(name, { pluginName: plugin.name, definition: item });
  return conditions;
}

/** A plugin environment provider's instance, checked for the methods the runner calls. */
export async function createPluginProvider(set: LoadedPluginSet, type: string, context: EnvironmentProviderContext): Promise<EnvironmentProvider | undefined> {
  const contribution = set.environmentProviders.get(type);
  if (contribution === undefined) return undefined;
  const origin = `plugin ${contribution.plugin.name} ${contribution.plugin.version}`;
  let created: unknown;
  try {
    created = await contribution.item.create({ ...context, config: contribution.plugin.config });
  } catch (error) {
    throw new ScenarioRunnerError('plugin_load_failed', `${origin}: environment provider ${JSON.stringify(type)} failed to start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const missing = ['setup', 'run', 'teardown', 'readFiles'].filter((method) => !isRecord(created) || typeof created[method] !== 'function');
  if (missing.length > 0) {
    throw new ScenarioRunnerError('plugin_load_failed', `${origin}: environment provider ${JSON.stringify(type)}: create() must return an object with ${missing.join(', ')} (see EnvironmentProvider)`);
  }
  return created as unknown as EnvironmentProvider;
}
