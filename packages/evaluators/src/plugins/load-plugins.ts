import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginReference } from '@agentbench/schemas';
import { resolveModulePath } from '@agentbench/helpers';
import { PluginLoadError } from '../errors/plugin-load-error.js';
import { PluginVersionError } from '../errors/plugin-version-error.js';
import { BUILTIN_EVALUATOR_TYPES } from '../evaluators/builtin-evaluators.js';
import { BUILTIN_SCANNER_NAMES } from '../scanners/builtin-scanners.js';
import { findConfigFile, loadConfigFile } from './config-file.js';
import { pluginDefinitionProblems, type PluginDefinition } from './plugin-definition.js';
import { pluginRequest, type PluginRequest } from './plugin-request.js';
import { buildPluginSet, type LoadedPlugin, type LoadedPluginSet } from './plugin-set.js';
import { satisfiesVersion } from './version-requirement.js';

export interface PluginLoadOptions {
  /** Folder of the scenario file: the scenario's relative references and package names resolve from here. */
  baseDir: string;
  /** The scenario file, named in messages (default: `baseDir`). */
  scenarioFile?: string;
  /** `ab ... --plugin NAME_OR_PATH` values; they resolve from `cwd`. */
  fromCli?: readonly string[];
  /** Where CLI references resolve and `agentbench.config.*` is looked for (default `process.cwd()`). */
  cwd?: string;
  /** A config file to read instead of looking in `cwd`, or `false` to read none. */
  configFile?: string | false;
  /** The flag `fromCli` came from, named in messages (default `--plugin`; `ab run-agent --scanner` passes its own). */
  cliFlag?: string;
  /** Evaluator types plugins may not register (default: the built-in types). */
  reservedEvaluatorTypes?: readonly string[];
  /** Environment provider types plugins may not register (default: none). */
  reservedEnvironmentProviderTypes?: readonly string[];
}

/**
 * - `resolved`: found, not imported yet; `disabled`: `enabled: false`;
 * - `not_installed`: a package name not in any `node_modules` up from its folder;
 * - `not_found`: a path that does not exist; `invalid_package`: a package without a usable entry file.
 */
export type PluginResolutionStatus = 'resolved' | 'disabled' | 'not_installed' | 'not_found' | 'invalid_package';

export interface PluginResolution extends PluginRequest {
  status: PluginResolutionStatus;
  /** The module file, when resolved. */
  resolvedPath?: string;
  packageName?: string;
  packageVersion?: string;
  /** One line for a listing: where it resolved, or why not. */
  message: string;
}

function describeRequest(request: PluginRequest): string {
  if (request.source === 'cli') return `"${request.reference}" (from ${request.origin})`;
  return `"${request.reference}" (listed in ${request.origin})`;
}

async function collectRequests(references: readonly PluginReference[], options: PluginLoadOptions): Promise<PluginRequest[]> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const requests: PluginRequest[] = [];
  const configFile = options.configFile === false ? undefined : options.configFile === undefined ? await findConfigFile(cwd) : path.resolve(cwd, options.configFile);
  if (configFile !== undefined) {
    const config = await loadConfigFile(configFile);
    for (const reference of config.plugins) {
      requests.push(pluginRequest(reference, { source: 'config', origin: config.file, baseDir: path.dirname(config.file) }));
    }
  }
  const baseDir = path.resolve(options.baseDir);
  for (const reference of references) {
    requests.push(pluginRequest(reference, { source: 'scenario', origin: options.scenarioFile ?? baseDir, baseDir }));
  }
  for (const reference of options.fromCli ?? []) {
    requests.push(pluginRequest(reference, { source: 'cli', origin: options.cliFlag ?? '--plugin', baseDir: cwd }));
  }
  return requests;
}

/**
 * Where every plugin reference points, without importing anything and without throwing for a plugin that
 * is missing: a dry run lists them (`@elizaos/plugin-github: not installed`). Reads the config file.
 */
export async function resolvePlugins(references: readonly PluginReference[], options: PluginLoadOptions): Promise<PluginResolution[]> {
  const requests = await collectRequests(references, options);
  const resolutions: PluginResolution[] = [];
  for (const request of requests) {
    if (!request.isEnabled) {
      resolutions.push({ ...request, status: 'disabled', message: 'disabled (enabled: false)' });
      continue;
    }
    const resolution = await resolveModulePath(request.reference, request.baseDir);
    if (resolution.kind === 'resolved') {
      resolutions.push({
        ...request,
        status: 'resolved',
        resolvedPath: resolution.file,
        ...(resolution.packageName === undefined ? {} : { packageName: resolution.packageName }),
        ...(resolution.packageVersion === undefined ? {} : { packageVersion: resolution.packageVersion }),
        message: `resolved to ${resolution.file}`,
      });
    } else {
      resolutions.push({ ...request, status: resolution.kind, message: resolution.message });
    }
  }
  return resolutions;
}

async function importDefinition(resolution: PluginResolution & { resolvedPath: string }): Promise<PluginDefinition> {
  const what = `cannot load plugin ${describeRequest(resolution)} from ${resolution.resolvedPath}`;
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolution.resolvedPath).href)) as Record<string, unknown>;
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new PluginLoadError(resolution.reference, `${what}: importing it threw: ${cause}`, { resolvedPath: resolution.resolvedPath, cause: error });
  }
  const definition = module.default;
  if (definition === undefined) {
    const names = Object.keys(module).filter((name) => name !== 'default');
    throw new PluginLoadError(
      resolution.reference,
      `${what}: it has no default export (expected \`export default definePlugin({ name, version, evaluators })\`${names.length === 0 ? '' : `; it exports ${names.join(', ')}`})`,
      { resolvedPath: resolution.resolvedPath },
    );
  }
  const problems = pluginDefinitionProblems(definition);
  if (problems.length > 0) {
    throw new PluginLoadError(resolution.reference, `${what}: its default export is not a valid plugin: ${problems.join('; ')}`, { resolvedPath: resolution.resolvedPath });
  }
  return definition as PluginDefinition;
}

function checkVersion(request: PluginRequest, definition: PluginDefinition, resolvedPath: string): void {
  if (request.version === undefined) return;
  const verdict = satisfiesVersion(definition.version, request.version);
  if ('problem' in verdict) {
    throw new PluginLoadError(request.reference, `cannot load plugin ${describeRequest(request)}: ${verdict.problem}`, { resolvedPath });
  }
  if (!verdict.isSatisfied) {
    throw new PluginVersionError(
      request.reference,
      `plugin ${describeRequest(request)} asks for version ${request.version}, but ${resolvedPath} declares "${definition.name}" ${definition.version}`,
      { resolvedPath, requestedVersion: request.version, declaredVersion: definition.version },
    );
  }
}

/**
 * Loads every enabled plugin of a scenario (`plugins:`), of `--plugin` and of `agentbench.config.*`, and
 * checks versions and clashes. Any failure stops here with a `PluginLoadError` (not installed, not found,
 * import threw, no valid export, `PluginVersionError`) or a `PluginConflictError`: a run never starts
 * with a plugin silently missing.
 */
export async function loadPlugins(references: readonly PluginReference[], options: PluginLoadOptions): Promise<LoadedPluginSet> {
  const resolutions = await resolvePlugins(references, options);
  const byPath = new Map<string, { definition: PluginDefinition; requests: PluginRequest[] }>();
  for (const resolution of resolutions) {
    if (resolution.status === 'disabled') continue;
    if (resolution.status !== 'resolved' || resolution.resolvedPath === undefined) {
      const label = resolution.status === 'not_installed' ? 'it is not installed' : resolution.status === 'not_found' ? 'its path does not exist' : 'its package has no usable entry';
      throw new PluginLoadError(resolution.reference, `cannot load plugin ${describeRequest(resolution)}: ${label}: ${resolution.message}`);
    }
    const resolvedPath = resolution.resolvedPath;
    let entry = byPath.get(resolvedPath);
    if (entry === undefined) {
      entry = { definition: await importDefinition({ ...resolution, resolvedPath }), requests: [] };
      byPath.set(resolvedPath, entry);
    }
    checkVersion(resolution, entry.definition, resolvedPath);
    entry.requests.push(resolution);
  }
  const plugins: LoadedPlugin[] = [...byPath.entries()].map(([resolvedPath, { definition, requests }]) => ({
    name: definition.name,
    version: definition.version,
    definition,
    resolvedPath,
    requests,
    config: Object.assign({}, ...requests.map((request) => request.config)) as Record<string, unknown>,
  }));
  return buildPluginSet(plugins, {
    reservedEvaluatorTypes: options.reservedEvaluatorTypes ?? BUILTIN_EVALUATOR_TYPES,
    reservedScannerNames: BUILTIN_SCANNER_NAMES,
    ...(options.reservedEnvironmentProviderTypes === undefined ? {} : { reservedEnvironmentProviderTypes: options.reservedEnvironmentProviderTypes }),
  });
}
