import yargs, { type Argv, type CommandModule } from 'yargs';
import { commandsFor } from './commands/index.js';
import { reportError } from './report-error.js';
import { describeUnknownArguments } from './unknown-arguments.js';
import { UsageError } from './usage-error.js';
import { CLI_VERSION } from './version.js';

export interface GlobalOptions {
  verbose: boolean;
}

/** Builds the `ab` parser over `commands` (commandsFor: the named one loaded, the others listed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function buildParser(argv: string[], commands: ReadonlyArray<CommandModule<any, any>>): Argv<GlobalOptions> {
  let parser = yargs(argv)
    .scriptName('ab')
    .usage('$0 <command> [options]\n\nRun and evaluate AI agents reproducibly, offline, in locked-down sandboxes.')
    .option('verbose', { type: 'boolean', default: false, describe: 'Show stack traces and debug output' })
    .version(CLI_VERSION)
    .alias('version', 'V')
    .help()
    .alias('help', 'h')
    .strict()
    .demandCommand(1, 'Name a command: see `ab --help`.')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false);
  for (const command of commands) parser = parser.command(command as never);
  skipHelpCaching(parser);
  return parser as unknown as Argv<GlobalOptions>;
}

/** What yargs (17 and 18) has at run time but leaves out of its typings. */
interface ParserInternals {
  getInternalMethods?: () => { getContext: () => { commands: string[] }; getUsageInstance?: () => { cacheHelpMessage?: () => void } };
  getOptions?: () => { key: Record<string, unknown> };
}

/**
 * yargs renders the running command's whole help text as soon as its handler has started, in case the
 * handler shows it later (cacheHelpMessage): ~0.2 s of CPU per `ab` process, word-wrapping every
 * option. No handler of ours shows help (a usage mistake goes through fail() and UsageError), so it
 * is skipped; `--help` renders it as before.
 */
function skipHelpCaching(parser: unknown): void {
  const usage = (parser as ParserInternals).getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage !== undefined) usage.cacheHelpMessage = () => {};
}

/** The command the parser is in (`['scenario', 'run']`) and that command's flags; empty if yargs cannot say. */
function failingContext(parser: Argv<GlobalOptions>): { command: string[]; flags: string[] } {
  const internals = parser as unknown as ParserInternals;
  return {
    command: [...(internals.getInternalMethods?.().getContext().commands ?? [])],
    flags: Object.keys(internals.getOptions?.().key ?? {}),
  };
}

/** Runs the CLI and returns the exit code; never throws for user mistakes. */
export async function main(argv: string[]): Promise<number> {
  const isVerbose = argv.includes('--verbose');
  let exitCode = 0;
  try {
    const parser = buildParser(argv, await commandsFor(argv)).fail((message, error) => {
      // yargs calls this for usage mistakes (message) and for errors thrown by handlers (error).
      // While it fails, the parser is in the context of the command the mistake was made in:
      // its path and its flags, so the error can point to that command's --help and nearest flag.
      const { command, flags } = failingContext(parser);
      if (error instanceof UsageError) throw new UsageError(error.reason, command);
      if (error !== undefined && error !== null) throw error;
      throw new UsageError(describeUnknownArguments(message, argv, flags) ?? message, command);
    });
    await parser.parseAsync();
    exitCode = typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    exitCode = reportError(error, { isVerbose });
  }
  return exitCode;
}
