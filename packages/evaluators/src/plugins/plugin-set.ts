import { PluginConflictError } from '../errors/plugin-conflict-error.js';
import type { Evaluator } from '../evaluator.js';
import type { Scanner } from '../scanners/scanner.js';
import type { EnvironmentProviderDefinition, PluginDefinition, PluginServiceDefinition, TerminationConditionDefinition } from './plugin-definition.js';
import type { PluginRequest } from './plugin-request.js';

/** A plugin after loading: its definition, where it was found, and every reference that named it. */
export interface LoadedPlugin {
  name: string;
  version: string;
  definition: PluginDefinition;
  /** The module file (real path); `(inline)` for a definition passed directly. */
  resolvedPath: string;
  requests: readonly PluginRequest[];
  /** The references' `config` merged in order (config file, scenario, CLI). */
  config: Readonly<Record<string, unknown>>;
}

export interface Contribution<Item> {
  item: Item;
  plugin: LoadedPlugin;
}

/** What the loaded plugins offer, by name, with clashes already refused. */
export interface LoadedPluginSet {
  plugins: readonly LoadedPlugin[];
  evaluators: ReadonlyMap<string, Contribution<Evaluator>>;
  environmentProviders: ReadonlyMap<string, Contribution<EnvironmentProviderDefinition>>;
  terminationConditions: ReadonlyMap<string, Contribution<TerminationConditionDefinition>>;
  services: ReadonlyMap<string, Contribution<PluginServiceDefinition>>;
  scanners: ReadonlyMap<string, Contribution<Scanner>>;
}

export interface PluginSetOptions {
  /** Evaluator types no plugin may register (default: none; `loadPlugins` passes the built-ins). */
  reservedEvaluatorTypes?: readonly string[];
  /** Environment provider types no plugin may register. */
  reservedEnvironmentProviderTypes?: readonly string[];
  /** Scanner names no plugin may register (default: none; `loadPlugins` passes the built-in rules). */
  reservedScannerNames?: readonly string[];
}

function describePlugin(plugin: LoadedPlugin): string {
  return `plugin "${plugin.name}" ${plugin.version} (${plugin.resolvedPath})`;
}

/** A plugin set from definitions given directly (tests, embedding): no files, no references. */
export function inlinePlugin(definition: PluginDefinition): LoadedPlugin {
  return { name: definition.name, version: definition.version, definition, resolvedPath: '(inline)', requests: [], config: {} };
}

/**
 * Collects what the plugins offer and refuses every clash at once, naming both sides: one plugin loaded
 * twice from different places, two plugins registering the same evaluator type (provider type, condition
 * or service name), or a plugin taking a reserved (built-in) name.
 */
export function buildPluginSet(plugins: readonly LoadedPlugin[], options: PluginSetOptions = {}): LoadedPluginSet {
  const conflicts: string[] = [];
  const byName = new Map<string, LoadedPlugin>();
  for (const plugin of plugins) {
    const earlier = byName.get(plugin.name);
    if (earlier !== undefined) {
      conflicts.push(`plugin "${plugin.name}" is loaded twice: ${earlier.version} from ${earlier.resolvedPath} and ${plugin.version} from ${plugin.resolvedPath}; reference one of them only`);
    } else byName.set(plugin.name, plugin);
  }

  const collect = <Item>(kind: string, items: (plugin: LoadedPlugin) => readonly Item[] | undefined, keyOf: (item: Item) => string, reserved: readonly string[]) => {
    const map = new Map<string, Contribution<Item>>();
    for (const plugin of plugins) {
      for (const item of items(plugin) ?? []) {
        const key = keyOf(item);
        if (reserved.includes(key)) {
          conflicts.push(`${describePlugin(plugin)} registers ${kind} "${key}", which is built in; give it another name (e.g. "${plugin.name.replace(/^@[^/]+\//, '')}_${key}")`);
          continue;
        }
        const earlier = map.get(key);
        if (earlier !== undefined) {
          conflicts.push(
            earlier.plugin === plugin
              ? `${describePlugin(plugin)} registers ${kind} "${key}" twice`
              : `${kind} "${key}" is registered by both ${describePlugin(earlier.plugin)} and ${describePlugin(plugin)}`,
          );
          continue;
        }
        map.set(key, { item, plugin });
      }
    }
    return map;
  };

  const evaluators = collect<Evaluator>('evaluator type', (plugin) => plugin.definition.evaluators, (item) => item.type, options.reservedEvaluatorTypes ?? []);
  const environmentProviders = collect<EnvironmentProviderDefinition>(
    'environment provider',
    (plugin) => plugin.definition.environmentProviders,
    (item) => item.type,
    options.reservedEnvironmentProviderTypes ?? [],
  );
  const terminationConditions = collect<TerminationConditionDefinition>('termination condition', (plugin) => plugin.definition.terminationConditions, (item) => item.name, []);
  const services = collect<PluginServiceDefinition>('service', (plugin) => plugin.definition.services, (item) => item.name, []);
  const scanners = collect<Scanner>('scanner', (plugin) => plugin.definition.scanners, (item) => item.name, options.reservedScannerNames ?? []);
  if (conflicts.length > 0) {
    throw new PluginConflictError(conflicts.length === 1 ? (conflicts[0] as string) : `plugins clash:\n${conflicts.map((conflict) => `  - ${conflict}`).join('\n')}`);
  }
  return { plugins, evaluators, environmentProviders, terminationConditions, services, scanners };
}
