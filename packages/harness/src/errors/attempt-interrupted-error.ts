import { HarnessError } from './harness-error.js';

/** The attempt was stopped from outside (Ctrl-C, SIGTERM, an aborted signal) while a stage ran. */
export class AttemptInterruptedError extends HarnessError {
  static override readonly marker: symbol = Symbol.for('agentbench.harness.attempt-interrupted-error');
  override readonly name = 'AttemptInterruptedError';

  constructor(stage: string) {
    super(`interrupted during ${stage}`, { failureReason: 'INTERRUPTED' });
  }
}
