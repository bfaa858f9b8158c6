import { SwebenchError } from './swebench-error.js';

/** The output folder cannot be used: its name is not a valid suite name, or it cannot be created. */
export class ImportTargetError extends SwebenchError {
  static override readonly marker: symbol = Symbol.for('agentbench.swebench.import-target-error');
  override readonly name = 'ImportTargetError';
  readonly folder: string;

  constructor(folder: string, reason: string, options?: { cause?: unknown }) {
    super(`--out ${folder}: ${reason}`, options);
    this.folder = folder;
  }
}
