import yargs, { type Argv } from 'yargs';
import { commands } from './commands/index.js';
import { reportError } from './report-error.js';
import { describeUnknownArguments } from './unknown-arguments.js';
import { UsageError } from './usage-error.js';
import { CLI_VERSION } from './version.js';

export interface GlobalOptions {
  verbose: boolean;
}

/** Builds the `ab` parser; exported so tests can drive the real command tree in-process. */
export function buildParser(argv: string[]): Argv<GlobalOptions> {
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
  return parser as unknown as Argv<GlobalOptions>;
}

/** What yargs (17 and 18) has at run time but leaves out of its typings. */
interface ParserInternals {
  getInternalMethods?: () => { getContext: () => { commands: string[] } };
  getOptions?: () => { key: Record<string, unknown> };
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
    const parser = buildParser(argv).fail((message, error) => {
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
