import { ReportError } from '../errors/report-error.js';

/** Two runs given to `compareRuns` share no task, so nothing can be paired. */
export class NoCommonTasksError extends ReportError {
  static override readonly marker: symbol = Symbol.for('agentbench.report.no-common-tasks-error');
  override readonly name = 'NoCommonTasksError';
  readonly folderA: string;
  readonly folderB: string;

  constructor(folderA: string, folderB: string, tasksA: readonly string[], tasksB: readonly string[]) {
    const list = (tasks: readonly string[]): string => `${tasks.slice(0, 5).join(', ')}${tasks.length > 5 ? `, … (${tasks.length})` : ''}`;
    super(`${folderA} and ${folderB} have no task in common (A: ${list(tasksA)}; B: ${list(tasksB)}): compare runs of the same tasks`);
    this.folderA = folderA;
    this.folderB = folderB;
  }
}
