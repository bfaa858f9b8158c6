import { SwebenchError } from './swebench-error.js';

/** The dataset file cannot be read at all (missing, not JSON, not a list of records). One bad record is not this error: it is skipped and reported. */
export class DatasetFileError extends SwebenchError {
  static override readonly marker: symbol = Symbol.for('agentbench.swebench.dataset-file-error');
  override readonly name = 'DatasetFileError';
  readonly file: string;

  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(`${file}: ${reason}`, options);
    this.file = file;
  }
}
