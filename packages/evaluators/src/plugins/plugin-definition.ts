import type { ConversationRecord } from '../context/evaluation-context.js';
import { PluginDefinitionError } from '../errors/plugin-definition-error.js';
import { evaluatorShapeProblem, type Evaluator } from '../evaluator.js';
import { scannerShapeProblem, type Scanner } from '../scanners/scanner.js';
import { isRecord } from '@agentbench/helpers';

/**
 * An environment provider a plugin offers (a scenario's `environment.type`). The scenario runner defines
 * what `create` receives and must return; here only the shape is checked.
 */
export interface EnvironmentProviderDefinition {
  /** The `environment.type` it serves, e.g. `e2b`. */
  type: string;
  description?: string;
  create(options: unknown): unknown;
}

/** A termination condition a plugin offers, used as `type: custom_condition` with `plugin` and `name`. */
export interface TerminationConditionDefinition {
  name: string;
  description?: string;
  /** Whether the conversation should stop now. */
  check(conversation: ConversationRecord, options: unknown): boolean | Promise<boolean>;
}

/**
 * A service a plugin offers to the runner (something mocks can target, e.g. `github-service`): a factory,
 * whose `create` returns the scenario runner's `ServiceDefinition` (the service itself, with its methods).
 */
export interface PluginServiceDefinition {
  name: string;
  description?: string;
  create(config: Readonly<Record<string, unknown>>): unknown;
}

/** What a plugin module default-exports, built with `definePlugin`. */
export interface PluginDefinition {
  /** The plugin's name, e.g. `evaluator-example`; shown in errors. */
  name: string;
  /** Semantic version, checked against a reference's `version`. */
  version: string;
  description?: string;
  evaluators?: readonly Evaluator[];
  environmentProviders?: readonly EnvironmentProviderDefinition[];
  terminationConditions?: readonly TerminationConditionDefinition[];
  services?: readonly PluginServiceDefinition[];
  /** Scanners of an agent attempt's changes (`defineScanner`), loaded with `ab run-agent --scanner`. */
  scanners?: readonly Scanner[];
}

const pluginMarker = Symbol.for('agentbench.plugin');
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const PLUGIN_KEYS = new Set(['name', 'version', 'description', 'evaluators', 'environmentProviders', 'terminationConditions', 'services', 'scanners']);

function listProblems(definition: Record<string, unknown>, key: string, check: (item: unknown, index: number) => string | undefined): string[] {
  const list = definition[key];
  if (list === undefined) return [];
  if (!Array.isArray(list)) return [`${key}: expected a list, found ${typeof list}`];
  const problems = list.map((item, index) => check(item, index)).filter((problem): problem is string => problem !== undefined);
  return problems.map((problem) => `${key}: ${problem}`);
}

function namedProblem(item: unknown, index: number, nameKey: 'type' | 'name', functionKey: string): string | undefined {
  if (!isRecord(item)) return `[${index}]: expected an object, found ${typeof item}`;
  if (typeof item[nameKey] !== 'string' || item[nameKey] === '') return `[${index}].${nameKey}: expected a non-empty string`;
  if (typeof item[functionKey] !== 'function') return `[${index}] (${String(item[nameKey])}).${functionKey}: expected a function`;
  return undefined;
}

/** Every problem with a plugin definition's shape (empty when valid). */
export function pluginDefinitionProblems(value: unknown): string[] {
  if (!isRecord(value)) return [`expected a plugin object {name, version, evaluators?, ...}, found ${value === null ? 'null' : typeof value}`];
  const problems: string[] = [];
  if (typeof value.name !== 'string' || value.name.trim() === '') problems.push('name: expected a non-empty string');
  if (typeof value.version !== 'string' || !SEMVER.test(value.version)) {
    problems.push(`version: expected a semantic version like "1.0.0", found ${JSON.stringify(value.version)}`);
  }
  if (value.description !== undefined && typeof value.description !== 'string') problems.push('description: expected a string');
  for (const key of Object.keys(value)) {
    if (!PLUGIN_KEYS.has(key)) problems.push(`${key}: unknown field (expected: ${[...PLUGIN_KEYS].join(', ')})`);
  }
  problems.push(...listProblems(value, 'evaluators', (item, index) => {
    const problem = evaluatorShapeProblem(item);
    return problem === undefined ? undefined : `[${index}]: ${problem}`;
  }));
  problems.push(...listProblems(value, 'environmentProviders', (item, index) => namedProblem(item, index, 'type', 'create')));
  problems.push(...listProblems(value, 'terminationConditions', (item, index) => namedProblem(item, index, 'name', 'check')));
  problems.push(...listProblems(value, 'services', (item, index) => namedProblem(item, index, 'name', 'create')));
  problems.push(...listProblems(value, 'scanners', (item, index) => {
    const problem = scannerShapeProblem(item);
    return problem === undefined ? undefined : `[${index}]: ${problem}`;
  }));
  return problems;
}

/** True for a value made by `definePlugin` (of any copy of this package). */
export function isDefinedPlugin(value: unknown): value is PluginDefinition {
  return isRecord(value) && pluginMarker in value;
}

/**
 * Defines a plugin: a module default-exports the result. Checks the shape now, so a mistake shows up
 * when the plugin is imported, with the field named.
 */
export function definePlugin<const Definition extends PluginDefinition>(definition: Definition): Definition {
  const problems = pluginDefinitionProblems(definition);
  if (problems.length > 0) {
    const name = isRecord(definition) && typeof definition.name === 'string' ? ` ${JSON.stringify(definition.name)}` : '';
    throw new PluginDefinitionError(`definePlugin${name}: ${problems.join('; ')}`);
  }
  return Object.freeze({ ...definition, [pluginMarker]: true });
}
