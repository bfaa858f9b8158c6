import type { InputFileProblem } from './input-file-problem.js';
import { SchemasError } from './schemas-error.js';

/** An input file could not be read: missing, not a regular file, too large, or not UTF-8 text. The message names the file. */
export class InputFileError extends SchemasError {
  static override readonly marker: symbol = Symbol.for('agentbench.schemas.input-file-error');
  override readonly name = 'InputFileError';
  readonly file: string;
  readonly problem: InputFileProblem;

  constructor(file: string, problem: InputFileProblem) {
    const position = problem.line === undefined ? '' : `:${problem.line}:${problem.column ?? 1}`;
    super(`${file}${position}: ${problem.message}`);
    this.file = file;
    this.problem = problem;
  }
}
