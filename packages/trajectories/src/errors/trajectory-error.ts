import { AgentBenchError } from '@agentbench/schemas';

const trajectoryMarker = Symbol.for('agentbench.trajectory-error');

/**
 * Base error of @agentbench/trajectories: a stream or a record that cannot be read as the format it
 * claims, named by its source (a file), its line when it has one, and what was expected there.
 */
export class TrajectoryError extends AgentBenchError {
  readonly [trajectoryMarker] = true;
  override readonly name: string = 'TrajectoryError';
  /** What was read: a file name or a label such as `codex stream`. */
  readonly source: string;
  /** 1-based line of a JSONL stream, null for the input as a whole. */
  readonly line: number | null;

  constructor(source: string, line: number | null, message: string) {
    super(`${source}${line === null ? '' : `: line ${line}`}: ${message}`);
    this.source = source;
    this.line = line;
  }

  static override isInstance(value: unknown): value is TrajectoryError {
    return typeof value === 'object' && value !== null && trajectoryMarker in value;
  }
}
