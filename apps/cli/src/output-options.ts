import { MESSAGE_EXCERPT_CHARACTERS, outputExcerpt } from '@agentbench/sandbox';
import { UsageError } from './usage-error.js';

/** `--max-output-bytes`, on every command that runs attempts (run-task, validate-suite, run-agent). */
export const MAX_OUTPUT_BYTES_OPTION = {
  type: 'number' as const,
  describe: "Bytes of stdout and of stderr kept from each command in the logs, head and tail (default: the task's environment.max_output_bytes, else 10 MiB)",
};

/** The flag's value, checked: a whole number of bytes of at least 1, or undefined when not given. */
export function maxOutputBytesArgument(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--max-output-bytes: expected a whole number of bytes of at least 1, found ${String(value)}`);
  return value;
}

/**
 * A message printed on one terminal line when it may quote what a sandbox printed (why an
 * attempt failed, an agent's stop message): escaped and cut, so no output floods the terminal or
 * rewrites it. The libraries already keep quoted output to 200 characters; this is the backstop.
 */
export function terminalMessage(message: string): string {
  return outputExcerpt(message, { maxCharacters: MESSAGE_EXCERPT_CHARACTERS });
}
