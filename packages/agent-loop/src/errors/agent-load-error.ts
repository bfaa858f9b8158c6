import { AgentLoopError } from './agent-loop-error.js';

/** A `--variant` could not be turned into an agent: unknown name, missing file, bad export, failing factory. */
export class AgentLoadError extends AgentLoopError {
  static override readonly marker: symbol = Symbol.for('agentbench.agent-loop.agent-load-error');
  override readonly name = 'AgentLoadError';
  /** The variant as the user gave it. */
  readonly variant: string;

  constructor(variant: string, message: string, options?: { cause?: unknown }) {
    super(`agent "${variant}": ${message}`, options);
    this.variant = variant;
  }
}
