import { AgentBenchError } from '@agentbench/schemas';

/** A mistake in how the command was called: printed with a pointer to the help of the command it was made in. */
export class UsageError extends AgentBenchError {
  override readonly name = 'UsageError';
  /** The mistake without the pointer to --help. */
  readonly reason: string;

  /** `command`: the (sub)command path the mistake was made in (`['scenario', 'run']`); empty for `ab` itself. */
  constructor(message: string, command: readonly string[] = []) {
    super(`${message}\nRun \`${['ab', ...command, '--help'].join(' ')}\` for usage.`);
    this.reason = message;
  }
}
