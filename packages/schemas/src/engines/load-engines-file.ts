import path from 'node:path';
import { ConfigurationError } from '../errors/configuration-error.js';
import { readInputFile } from '../loading/read-input-file.js';
import { parseEnginesConfig, type EnginesConfig } from './engine-config.js';

async function readJson(file: string, isRequired: boolean): Promise<unknown> {
  const read = await readInputFile(file);
  if (read.problem !== undefined) {
    if (!isRequired && read.problem.kind === 'not_found') return undefined;
    const position = read.problem.line === undefined ? '' : ` (line ${read.problem.line}, column ${read.problem.column ?? 1})`;
    throw new ConfigurationError(file, `cannot read the engines file: ${read.problem.message}${position}`);
  }
  try {
    return JSON.parse(read.text) as unknown;
  } catch (error) {
    throw new ConfigurationError(file, `not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

/** Reads an engines file given by `--engines FILE`: JSON `{ "engines": [...] }` (an agentbench.config.json works too). */
export async function loadEnginesFile(file: string): Promise<EnginesConfig> {
  const config = parseEnginesConfig(await readJson(file, true), file);
  if (config === undefined) throw new ConfigurationError(file, `has no "engines" list; expected { "engines": [{ "name": "local", "host": "unix:///var/run/docker.sock", "capacity": 4 }] }`);
  return config;
}

/** The `engines` of `agentbench.config.json` in `cwd`, or undefined when there is no such file or it has no engines. */
export async function loadConfiguredEngines(cwd: string = process.cwd()): Promise<EnginesConfig | undefined> {
  const file = path.join(cwd, 'agentbench.config.json');
  const value = await readJson(file, false);
  return value === undefined ? undefined : parseEnginesConfig(value, file);
}
