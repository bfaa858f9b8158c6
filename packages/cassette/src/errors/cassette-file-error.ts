import { CassetteError } from './cassette-error.js';

/** A cassette file that cannot be used: its message names the file and, when one is at fault, the line. */
export class CassetteFileError extends CassetteError {
  override readonly name: string = 'CassetteFileError';
  readonly file: string;
  readonly line: number | undefined;

  constructor(file: string, line: number | undefined, message: string, options: { cause?: unknown } = {}) {
    super(`${file}${line === undefined ? '' : `: line ${line}`}: ${message}`, options);
    this.file = file;
    this.line = line;
  }
}
