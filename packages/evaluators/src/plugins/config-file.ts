import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatFieldPath, PluginReferenceSchema, readInputFile, type PluginReference } from '@agentbench/schemas';
import * as v from 'valibot';
import { ConfigFileError } from '../errors/config-file-error.js';
import { isFile } from '@agentbench/helpers';

/** Looked for in the working directory, in this order; more than one is an error. */
export const CONFIG_FILE_NAMES = ['agentbench.config.json', 'agentbench.config.js', 'agentbench.config.mjs', 'agentbench.config.ts'] as const;

/** `agentbench.config.*`: the plugins of every run started from its folder. Other keys are left to their readers. */
export const AgentbenchConfigSchema = v.looseObject({
  plugins: v.optional(v.array(PluginReferenceSchema, 'expected a list of plugin references'), []),
});
export type AgentbenchConfig = v.InferOutput<typeof AgentbenchConfigSchema>;

export interface LoadedConfigFile {
  file: string;
  plugins: PluginReference[];
}

/** The config file in `directory`, or undefined; throws when several exist. */
export async function findConfigFile(directory: string): Promise<string | undefined> {
  const found: string[] = [];
  for (const name of CONFIG_FILE_NAMES) {
    const file = path.join(directory, name);
    if (await isFile(file)) found.push(file);
  }
  if (found.length > 1) {
    throw new ConfigFileError(found[0] as string, `found ${found.map((file) => path.basename(file)).join(' and ')} in ${directory}; keep one`);
  }
  return found[0];
}

async function readConfigValue(file: string): Promise<unknown> {
  if (file.endsWith('.json')) {
    // Read like every other input file: a regular file, bounded, UTF-8.
    const read = await readInputFile(file);
    if (read.problem !== undefined) {
      const position = read.problem.line === undefined ? '' : ` (line ${read.problem.line}, column ${read.problem.column ?? 1})`;
      throw new ConfigFileError(file, `cannot read it: ${read.problem.message}${position}`);
    }
    try {
      return JSON.parse(read.text) as unknown;
    } catch (error) {
      throw new ConfigFileError(file, `is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  try {
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
    if (module.default === undefined) throw new ConfigFileError(file, 'has no default export (expected `export default { plugins: [...] }`)');
    return module.default;
  } catch (error) {
    if (ConfigFileError.isInstance(error)) throw error;
    const code = (error as { code?: unknown } | undefined)?.code;
    if (file.endsWith('.ts') && code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      // Node 20 cannot import TypeScript; we do not bundle a compiler for one config file.
      throw new ConfigFileError(
        file,
        'Node cannot load a TypeScript config without a loader: rename it to agentbench.config.js (or .mjs / .json), or run with a TypeScript loader (node --import tsx)',
        { cause: error },
      );
    }
    throw new ConfigFileError(file, `failed to load: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Reads and validates a config file. */
export async function loadConfigFile(file: string): Promise<LoadedConfigFile> {
  const absolute = path.resolve(file);
  if (!(await isFile(absolute))) throw new ConfigFileError(absolute, 'does not exist');
  const value = await readConfigValue(absolute);
  const parsed = v.safeParse(AgentbenchConfigSchema, value);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => {
      const fieldPath = formatFieldPath((issue.path ?? []).map((item) => item.key as string | number));
      return `${fieldPath === '' ? '(config)' : fieldPath}: ${issue.message}`;
    });
    throw new ConfigFileError(absolute, `is not valid: ${problems.join('; ')}`);
  }
  return { file: absolute, plugins: parsed.output.plugins };
}
