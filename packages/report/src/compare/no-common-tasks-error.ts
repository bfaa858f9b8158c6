import { ReportError } from '../errors/report-error.js';

const noCommonTasksMarker = Symbol.for('agentbench.report.no-common-tasks-error');

/** Two runs given to `compareRuns` share no task, so nothing can be paired. */
export class NoCommonTasksError extends ReportError {
  readonly [noCommonTasksMarker] = true;
  override readonly name = 'NoCommonTasksError';
  readonly folderA: string;
  readonly folderB: string;

  constructor(folderA: string, folderB: string, tasksA: readonly string[], tasksB: readonly string[]) {
    const list = (tasks: readonly string[]): string => `${tasks.slice(0, 5).join(', ')}${tasks.length > 5 ? `, … (${tasks.length})` : ''}`;
    super(`${folderA} and ${folderB} have no task in common (A: ${list(tasksA)}; B: ${list(tasksB)}): compare runs of the same tasks`);
    this.folderA = folderA;
    this.folderB = folderB;
  }

  static override isInstance(value: unknown): value is NoCommonTasksError {
    return typeof value === 'object' && value !== null && noCommonTasksMarker in value;
  }
}
