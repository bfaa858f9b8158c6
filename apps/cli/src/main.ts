import yargs, { type Argv } from 'yargs';
import { commands } from './commands/index.js';
import { reportError } from './report-error.js';
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

/** Runs the CLI and returns the exit code; never throws for user mistakes. */
export async function main(argv: string[]): Promise<number> {
  const isVerbose = argv.includes('--verbose');
  let exitCode = 0;
  try {
    const parser = buildParser(argv).fail((message, error) => {
      // yargs calls this for usage mistakes (message) and for errors thrown by handlers (error).
      throw error ?? new UsageError(message);
    });
    await parser.parseAsync();
    exitCode = typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    exitCode = reportError(error, { isVerbose });
  }
  return exitCode;
}
