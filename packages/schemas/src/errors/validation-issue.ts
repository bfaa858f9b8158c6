import { boundMessage } from '../shared/display-value.js';

export type IssueSeverity = 'error' | 'warning';

/** Most issues of one file listed in a message or by `ab validate` (the rest are counted). */
export const MAX_LISTED_ISSUES = 20;

/** One problem found in a file, with its position. `path` is a field path such as `run[0].evaluations[1].value`. */
export interface ValidationIssue {
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** Field path, empty for the document itself. */
  path: string;
  /** Human text, usually `expected X, found Y`. */
  message: string;
  expected?: string;
  received?: string;
  severity: IssueSeverity;
}

/**
 * `FILE:LINE:COL: PATH: message`; warnings are marked `warning:`. One line, bounded: control characters
 * in the path or message are escaped and each is cut at `MAX_SHOWN_MESSAGE_CHARACTERS` (values in
 * messages are already cut at 80 where they are made; this catches any that are not).
 */
export function formatIssue(issue: ValidationIssue): string {
  const severity = issue.severity === 'warning' ? 'warning: ' : '';
  const path = issue.path === '' ? '' : `${boundMessage(issue.path, 200)}: `;
  return `${issue.file}:${issue.line}:${issue.column}: ${severity}${path}${boundMessage(issue.message)}`;
}

/**
 * `formatIssue` of each issue, at most `limit` (default `MAX_LISTED_ISSUES`) per file; the rest of a
 * file's issues become one line saying how many were left out.
 */
export function formatIssueList(issues: readonly ValidationIssue[], limit: number = MAX_LISTED_ISSUES): string[] {
  const lines: string[] = [];
  const shownPerFile = new Map<string, number>();
  const hiddenPerFile = new Map<string, number>();
  for (const issue of issues) {
    const shown = shownPerFile.get(issue.file) ?? 0;
    if (shown < limit) {
      lines.push(formatIssue(issue));
      shownPerFile.set(issue.file, shown + 1);
    } else {
      hiddenPerFile.set(issue.file, (hiddenPerFile.get(issue.file) ?? 0) + 1);
    }
  }
  for (const [file, hidden] of hiddenPerFile) lines.push(`${file}: ${hidden.toLocaleString('en-US')} more ${hidden === 1 ? 'issue' : 'issues'} not listed`);
  return lines;
}

export function hasErrors(issues: readonly ValidationIssue[]): boolean {
  return issues.some((issue) => issue.severity === 'error');
}

/** Issues in file order (line, column), errors before warnings at the same place. */
export function sortIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return [...issues].sort(
    (left, right) =>
      left.file.localeCompare(right.file) ||
      left.line - right.line ||
      left.column - right.column ||
      (left.severity === right.severity ? 0 : left.severity === 'error' ? -1 : 1),
  );
}
