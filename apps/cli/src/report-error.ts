import { AgentBenchError } from '@agentbench/schemas';

/**
 * True for errors that describe a mistake in the user's input, not a bug of ours: every error
 * an @agentbench package throws on purpose extends AgentBenchError (any copy of the package).
 */
export function isUserError(error: unknown): boolean {
  return AgentBenchError.isInstance(error);
}

/**
 * Prints an error the way a user needs it and returns the exit code: user mistakes in
 * one or two lines, our own bugs with a pointer to --verbose; stacks only with --verbose.
 */
export function reportError(error: unknown, options: { isVerbose: boolean }): number {
  const message = error instanceof Error ? error.message : String(error);
  if (isUserError(error)) {
    process.stderr.write(`ab: ${message}\n`);
  } else {
    process.stderr.write(`ab: internal error: ${message}\n`);
    if (!options.isVerbose) process.stderr.write('ab: run again with --verbose for details, and report it if it persists\n');
  }
  if (options.isVerbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return isUserError(error) ? 1 : 2;
}
