import { AgentBenchError } from '@agentbench/schemas';

const reportMarker = Symbol.for('agentbench.report-error');

/** Base error of @agentbench/report. `isInstance` checks a `Symbol.for` marker, so it works across copies of the package. */
export class ReportError extends AgentBenchError {
  readonly [reportMarker] = true;
  override readonly name: string = 'ReportError';

  static override isInstance(value: unknown): value is ReportError {
    return typeof value === 'object' && value !== null && reportMarker in value;
  }
}
