import { AgentBenchError } from '@agentbench/schemas';

/** A mistake in how the command was called: printed with a pointer to --help. */
export class UsageError extends AgentBenchError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super(`${message}\nRun \`ab --help\` for usage.`);
  }
}
