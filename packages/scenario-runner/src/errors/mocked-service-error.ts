import { ScenarioRunnerError } from './scenario-runner-error.js';

/** The error a mock's `error: {code, message, status}` makes a service call throw. */
export class MockedServiceError extends ScenarioRunnerError {
  static override readonly marker: symbol = Symbol.for('agentbench.scenario-runner.mocked-service-error');
  override readonly name = 'MockedServiceError';
  readonly code: string;
  readonly status: number | undefined;

  constructor(options: { code: string; message: string; status?: number }) {
    super('service_call', options.message);
    this.code = options.code;
    this.status = options.status;
  }
}
