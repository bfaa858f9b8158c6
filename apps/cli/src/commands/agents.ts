import type { CommandModule } from 'yargs';
import { findAgentDefinition, installAgent, isAgentInstalled, listAgentDefinitions } from '@agentbench/installed-agents';
import { UsageError } from '../usage-error.js';
import { jsonOption } from '../json-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

// `ab agents list` and `ab agents install NAME[@VERSION]`: the CLI agents AgentBench can run
// (definitions as data) and their checksummed host cache. Running one is not wired yet (see docs/agents.md).

interface CommonArguments {
  definitions?: string[];
  cache?: string;
}

const definitionsOption = {
  type: 'string',
  array: true,
  describe: 'A folder of more agent definition files (*.yaml); repeatable. A file there replaces a shipped agent of the same name',
} as const;
const cacheOption = {
  type: 'string',
  describe: 'The host cache of installed agents (default $AGENTBENCH_AGENTS_CACHE, else ~/.cache/agentbench/agents)',
} as const;

function common(argv: CommonArguments): { folders: string[]; cacheFolder?: string } {
  return { folders: argv.definitions ?? [], ...(argv.cache === undefined ? {} : { cacheFolder: argv.cache }) };
}

interface ListArguments extends CommonArguments {
  json: boolean;
}

const listCommand: CommandModule<object, ListArguments> = {
  command: 'list',
  describe: 'List the agents: name, pinned version, wire API, runtime, whether the cache holds them',
  builder: (yargs) =>
    yargs
      .option('definitions', definitionsOption)
      .option('cache', cacheOption)
      .option('json', jsonOption('Print a JSON array'))
      .example('$0 agents list', 'The shipped agents (claude-code, codex, qwen-code, command)'),
  handler: async (argv) => {
    const { folders, cacheFolder } = common(argv);
    const definitions = await listAgentDefinitions({ folders });
    const rows: Array<Record<'name' | 'version' | 'wire_api' | 'runtime' | 'installed' | 'description' | 'file', string>> = [];
    for (const definition of definitions) {
      const isInstalled = definition.package === undefined ? undefined : await isAgentInstalled(definition, cacheFolder === undefined ? {} : { cacheFolder });
      rows.push({
        name: definition.name,
        version: definition.version ?? '-',
        wire_api: definition.wire_api,
        runtime: definition.runtime === 'none' ? 'none' : `${definition.runtime.package}@${definition.runtime.version}`,
        installed: isInstalled === undefined ? 'n/a' : isInstalled ? 'yes' : 'no',
        description: definition.description,
        file: definition.file,
      });
    }
    if (argv.json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    const columns = ['name', 'version', 'wire_api', 'runtime', 'installed', 'description'] as const;
    const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => row[column].length)));
    const line = (cells: readonly string[]) => cells.map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join('  ');
    process.stdout.write(`${line(columns.map((column) => column.toUpperCase().replace('_', ' ')))}\n`);
    for (const row of rows) process.stdout.write(`${line(columns.map((column) => row[column]))}\n`);
  },
};

interface InstallArguments extends CommonArguments {
  agent: string;
  force: boolean;
  registry?: string;
}

const installCommand: CommandModule<object, InstallArguments> = {
  command: 'install <agent>',
  describe: 'Install an agent (and its runtime) from npm into the host cache, checksummed; reuse it when already there',
  builder: (yargs) =>
    yargs
      .positional('agent', { type: 'string', demandOption: true, describe: 'NAME or NAME@VERSION (an exact version; default the one its definition pins)' })
      .option('definitions', definitionsOption)
      .option('cache', cacheOption)
      .option('force', { type: 'boolean', default: false, describe: 'Remove the cached install (even one whose checksum fails) and install it again' })
      .option('registry', { type: 'string', describe: "The npm registry URL (default: npm's own setting)" })
      .example('$0 agents install codex', 'Install the pinned Codex CLI')
      .example('$0 agents install claude-code@2.1.332', 'Install a given version'),
  handler: async (argv) => {
    const { folders, cacheFolder } = common(argv);
    const at = argv.agent.lastIndexOf('@');
    const name = at > 0 ? argv.agent.slice(0, at) : argv.agent;
    const version = at > 0 ? argv.agent.slice(at + 1) : undefined;
    if (name === '' || version === '') throw new UsageError(`expected NAME or NAME@VERSION, found "${argv.agent}"`, ['agents', 'install']);
    const definition = await findAgentDefinition(name, { folders });
    if (definition.package === undefined) {
      process.stdout.write(`${definition.name}: nothing to install (it runs a command already in the image)\n`);
      return;
    }
    const installation = await installAgent(definition, {
      ...(cacheFolder === undefined ? {} : { cacheFolder }),
      ...(version === undefined ? {} : { version }),
      ...(argv.registry === undefined ? {} : { registry: argv.registry }),
      isForced: argv.force,
      onOutput: (line) => process.stderr.write(`npm: ${line}\n`),
    });
    const what = `${installation.name} ${installation.version ?? ''}`;
    const runtime = installation.runtimeFolder === undefined ? '' : ` (runtime in ${installation.runtimeFolder})`;
    process.stdout.write(
      installation.status === 'installed'
        ? `installed ${what} in ${installation.folder ?? ''}${runtime}, checksummed\n`
        : `${what} is already installed in ${installation.folder ?? ''}${runtime}; its checksums match\n`,
    );
  },
};

export const agentsCommand: CommandModule = {
  ...COMMAND_SUMMARIES.agents,
  builder: (yargs) => yargs.command(listCommand as never).command(installCommand as never).demandCommand(1, 'Name a subcommand: list or install'),
  handler: () => {},
};
