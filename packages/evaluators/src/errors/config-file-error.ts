import { EvaluatorsError } from './evaluators-error.js';

/** `agentbench.config.*` cannot be read, is ambiguous, or has an invalid `plugins` list. */
export class ConfigFileError extends EvaluatorsError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.config-file-error');
  override readonly name = 'ConfigFileError';
  readonly file: string;

  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super(`${file}: ${message}`, options);
    this.file = file;
  }
}
