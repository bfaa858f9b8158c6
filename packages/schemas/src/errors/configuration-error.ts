import { MarkedError } from './marked-error.js';

/**
 * A setting is wrong or missing: an option of the loop, the LLM client or an agent, an environment
 * variable (`OPENROUTER_API_KEY`), a harness setting (the mirror map in AGENTBENCH_GIT_MIRRORS or
 * agentbench.config.json). One class for every package: agent-loop and harness throw this one.
 */
export class ConfigurationError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.configuration-error');
  override readonly name = 'ConfigurationError';
  /** The option or variable at fault, with where it came from when that helps: `limits.maxSteps`, `agentbench.config.json: git.mirrors`. */
  readonly field: string;

  constructor(field: string, message: string, options?: { cause?: unknown }) {
    super(`${field}: ${message}`, options);
    this.field = field;
  }
}
