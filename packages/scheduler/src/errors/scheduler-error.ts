import { AgentBenchError } from '@agentbench/schemas';

const schedulerMarker = Symbol.for('agentbench.scheduler-error');

/**
 * Base error of @agentbench/scheduler: an option the scheduler cannot use (a concurrency of 0,
 * a per-key limit that is not a whole number). `isInstance` works across copies of the package.
 */
export class SchedulerError extends AgentBenchError {
  readonly [schedulerMarker] = true;
  override readonly name: string = 'SchedulerError';
  /** The offending option, such as `concurrency` or `limitsByKey.openai`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.field = field;
  }

  static override isInstance(value: unknown): value is SchedulerError {
    return typeof value === 'object' && value !== null && schedulerMarker in value;
  }
}
