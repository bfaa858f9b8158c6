import { ReportError } from './report-error.js';

/** A RUN_DIR given to the report does not exist, is not a folder, or holds no artifacts the report can read. */
export class RunFolderError extends ReportError {
  static override readonly marker: symbol = Symbol.for('agentbench.report.run-folder-error');
  override readonly name = 'RunFolderError';
  readonly folder: string;

  constructor(folder: string, reason: string) {
    super(`${folder}: ${reason}`);
    this.folder = folder;
  }
}
