import type { CommandModule } from 'yargs';
import { COMMAND_SUMMARIES, type CommandName, type CommandSummary } from './command-summaries.js';

// Each module has its own argument type; yargs only needs the common shape here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCommand = CommandModule<any, any>;

/** Each command's module, imported only when that command runs or shows its help. */
const loaders: Record<CommandName, () => Promise<AnyCommand>> = {
  run: async () => (await import('./run.js')).runCommand,
  'run-agent': async () => (await import('./run-agent.js')).runAgentCommand,
  'run-task': async () => (await import('./run-task.js')).runTaskCommand,
  replay: async () => (await import('./replay.js')).replayCommand,
  proxy: async () => (await import('./proxy.js')).proxyCommand,
  'validate-suite': async () => (await import('./validate-suite.js')).validateSuiteCommand,
  'list-tasks': async () => (await import('./list-tasks.js')).listTasksCommand,
  validate: async () => (await import('./validate.js')).validateCommand,
  schema: async () => (await import('./schema.js')).schemaCommand,
  scenario: async () => (await import('./scenario.js')).scenarioCommand,
  report: async () => (await import('./report.js')).reportCommand,
  compare: async () => (await import('./compare.js')).compareCommand,
  export: async () => (await import('./export.js')).exportCommand,
  view: async () => (await import('./view.js')).viewCommand,
  'bench-models': async () => (await import('./bench-models.js')).benchModelsCommand,
  'import-swebench': async () => (await import('./import-swebench.js')).importSwebenchCommand,
  doctor: async () => (await import('./doctor.js')).doctorCommand,
  cleanup: async () => (await import('./cleanup.js')).cleanupCommand,
  image: async () => (await import('./image.js')).imageCommand,
  agents: async () => (await import('./agents.js')).agentsCommand,
};

/** The command an argument list names: its first word that is not a flag (`ab` has no global flag taking a value). */
function namedCommand(argv: readonly string[]): CommandName | undefined {
  const word = argv.find((argument) => !argument.startsWith('-'));
  return (Object.keys(COMMAND_SUMMARIES) as CommandName[]).find((name) => {
    const summary: CommandSummary = COMMAND_SUMMARIES[name];
    return name === word || [summary.aliases ?? []].flat().some((alias) => alias === word);
  });
}

/**
 * Every `ab` command, in the order `--help` lists them: the one `argv` names whole, the others as their
 * summary only (enough for the command list, --help and "did you mean"; their handlers never run, as
 * yargs runs only the command named). So `ab run` never loads what `ab report` or `ab scenario` need,
 * and `ab --help` loads no command module at all.
 */
export async function commandsFor(argv: readonly string[]): Promise<AnyCommand[]> {
  const named = namedCommand(argv);
  const loaded = named === undefined ? undefined : await loaders[named]();
  return (Object.keys(COMMAND_SUMMARIES) as CommandName[]).map((name) =>
    name === named && loaded !== undefined ? loaded : { ...COMMAND_SUMMARIES[name], builder: {}, handler: () => {} },
  );
}

/** Every command module, loaded (tests compare the lazy tree's help with the whole one's). */
export async function allCommands(): Promise<AnyCommand[]> {
  return Promise.all((Object.keys(COMMAND_SUMMARIES) as CommandName[]).map((name) => loaders[name]()));
}
