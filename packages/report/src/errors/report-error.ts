import { MarkedError } from '@agentbench/schemas';

/** Base error of @agentbench/report. `isInstance` checks a `Symbol.for` marker, so it works across copies of the package. */
export class ReportError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.report-error');
  override readonly name: string = 'ReportError';
}
