import { HarnessError } from './harness-error.js';

/** A run directory cannot be used: not a suite run, another process holds it, a corrupt record file. */
export class RunDirectoryError extends HarnessError {
  static override readonly marker: symbol = Symbol.for('agentbench.harness.run-directory-error');
  override readonly name = 'RunDirectoryError';
  /** The file or folder the problem is about. */
  readonly path: string;

  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(`${path}: ${message}`, options);
    this.path = path;
  }
}
