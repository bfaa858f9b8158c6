import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { closestName } from '@agentbench/schemas';
import { InstalledAgentError } from '../errors/installed-agent-error.js';
import { shippedFolder } from '../package-folder.js';
import { DEFINITION_EXTENSIONS, loadAgentDefinition, type AgentDefinition } from './load-agent-definition.js';

export interface AgentDefinitionFolders {
  /** Folders of more definition files, read after the shipped ones; a file there replaces a shipped agent of the same name. */
  folders?: readonly string[];
}

async function definitionFiles(folder: string, isRequired: boolean): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if (!isRequired && (error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new InstalledAgentError(`cannot read the agent definitions folder ${folder}: ${(error as Error).message}`);
  }
  return names
    .filter((name) => DEFINITION_EXTENSIONS.includes(path.extname(name)))
    .sort()
    .map((name) => path.join(folder, name));
}

/**
 * Every agent definition: the shipped ones (`claude-code`, `codex`, `qwen-code`, `command`) and those
 * of `folders`, sorted by name. Adding an agent is adding a file to a folder. A file that is not valid
 * fails the list with its `FileValidationError`.
 */
export async function listAgentDefinitions(options: AgentDefinitionFolders = {}): Promise<AgentDefinition[]> {
  const byName = new Map<string, AgentDefinition>();
  const folders = [shippedFolder('agents'), ...(options.folders ?? []).map((folder) => path.resolve(folder))];
  for (const [index, folder] of folders.entries()) {
    for (const file of await definitionFiles(folder, index > 0)) {
      const definition = await loadAgentDefinition(file);
      byName.set(definition.name, definition);
    }
  }
  return [...byName.values()].sort((left, right) => left.name.localeCompare(right.name));
}

/**
 * The definition named `name`, or an `InstalledAgentError` listing the agents (with the nearest name).
 * A path ending in `.yaml`, `.yml` or `.json` (`--agent ./my-agent.yaml`) is a definition file of the
 * user's, read as it is (its `FileValidationError` names the file, line and field); `fileSha256` refuses
 * such a file edited since the run started (see `loadAgentDefinition`).
 */
export async function findAgentDefinition(name: string, options: AgentDefinitionFolders & { fileSha256?: string } = {}): Promise<AgentDefinition> {
  if (DEFINITION_EXTENSIONS.some((extension) => name.toLowerCase().endsWith(extension))) return loadAgentDefinition(name, options.fileSha256 === undefined ? {} : { sha256: options.fileSha256 });
  const definitions = await listAgentDefinitions(options);
  const found = definitions.find((definition) => definition.name === name);
  if (found !== undefined) return found;
  const names = definitions.map((definition) => definition.name);
  const near = closestName(name, names);
  throw new InstalledAgentError(
    `unknown agent "${name}"${near === undefined ? '' : ` (did you mean ${near}?)`}; the agents are ${names.join(', ')} (\`ab agents list\`); to add one, add a definition file (see docs/agents.md)`,
  );
}
