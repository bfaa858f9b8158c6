import type { ValidationIssue } from './validation-issue.js';
import { formatIssueList } from './validation-issue.js';
import { SchemasError } from './schemas-error.js';

/** One or more files failed validation. Carries every issue (errors and warnings); the message lists them one per line. */
export class FileValidationError extends SchemasError {
  static override readonly marker: symbol = Symbol.for('agentbench.schemas.file-validation-error');
  override readonly name = 'FileValidationError';
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[]) {
    const errors = issues.filter((issue) => issue.severity === 'error');
    const files = [...new Set(errors.map((issue) => issue.file))];
    const heading =
      files.length === 1
        ? `${files[0]} is not valid (${errors.length} ${errors.length === 1 ? 'error' : 'errors'}):`
        : `${files.length} files are not valid (${errors.length} errors):`;
    super([heading, ...formatIssueList(issues).map((line) => `  ${line}`)].join('\n'));
    this.issues = issues;
  }

  /** Only the error-severity issues. */
  get errors(): ValidationIssue[] {
    return this.issues.filter((issue) => issue.severity === 'error');
  }
}
