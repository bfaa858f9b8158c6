import { AgentBenchError } from '@agentbench/schemas';

/** A file given to a command that runs another kind of file (a matrix to `scenario run`); the message names the right command. */
export class WrongFileKindError extends AgentBenchError {
  override readonly name = 'WrongFileKindError';
  readonly file: string;

  constructor(file: string, message: string) {
    super(message);
    this.file = file;
  }
}
