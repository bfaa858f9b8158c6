import { SwebenchError } from './swebench-error.js';

/** The oracle agent cannot run: the task has no gold patch, or it cannot be read. */
export class OracleAgentError extends SwebenchError {
  static override readonly marker: symbol = Symbol.for('agentbench.swebench.oracle-agent-error');
  override readonly name = 'OracleAgentError';
}
