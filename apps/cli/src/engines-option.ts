import { loadConfiguredEngines, loadEnginesFile, type EngineConfig } from '@agentbench/schemas';
import { EngineSet } from '@agentbench/sandbox';
import { UsageError } from './usage-error.js';

/** `--engines FILE`, on the commands that run attempts on Docker engines and on doctor and cleanup. */
export const ENGINES_OPTION = {
  type: 'string' as const,
  describe:
    'Docker engines file (JSON: { "engines": [{ "name", "host": unix:///… | tcp://host:port | ssh://user@host, "tls": { "ca", "cert", "key" }, "capacity" }] }). Default: the "engines" of ./agentbench.config.json, else the local engine only',
};

/** The engines list in effect: `--engines FILE`, else `engines` of ./agentbench.config.json, else undefined (the local engine). */
export async function enginesArgument(file: string | undefined): Promise<EngineConfig[] | undefined> {
  if (file !== undefined) return (await loadEnginesFile(file)).engines;
  return (await loadConfiguredEngines())?.engines;
}

/** The engine set of the engines in effect, for commands that need one (`image push`, doctor, cleanup). */
export async function openEngineSet(file: string | undefined): Promise<EngineSet | undefined> {
  const engines = await enginesArgument(file);
  return engines === undefined ? undefined : EngineSet.open(engines);
}

/** `--engine NAME` of the engines list; an unknown name lists the known ones. */
export function pickEngine(engines: readonly EngineConfig[], name: string): EngineConfig {
  const engine = engines.find((candidate) => candidate.name === name);
  if (engine === undefined) throw new UsageError(`--engine: no engine named '${name}'; the engines list has ${engines.map((candidate) => candidate.name).join(', ')}`);
  return engine;
}
