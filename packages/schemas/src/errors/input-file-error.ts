import type { InputFileProblem } from '../loading/input-file-problem.js';
import { SchemasError } from './schemas-error.js';

const inputFileMarker = Symbol.for('agentbench.schemas.input-file-error');

/** An input file could not be read: missing, not a regular file, too large, or not UTF-8 text. The message names the file. */
export class InputFileError extends SchemasError {
  readonly [inputFileMarker] = true;
  override readonly name = 'InputFileError';
  readonly file: string;
  readonly problem: InputFileProblem;

  constructor(file: string, problem: InputFileProblem) {
    const position = problem.line === undefined ? '' : `:${problem.line}:${problem.column ?? 1}`;
    super(`${file}${position}: ${problem.message}`);
    this.file = file;
    this.problem = problem;
  }

  static override isInstance(value: unknown): value is InputFileError {
    return typeof value === 'object' && value !== null && inputFileMarker in value;
  }
}
