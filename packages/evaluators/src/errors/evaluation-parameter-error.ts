import { formatIssue, type ValidationIssue } from '@agentbench/schemas';
import { EvaluatorsError } from './evaluators-error.js';

/** Evaluation entries are not valid (unknown type, bad parameters, misplaced). Carries every issue; the message lists them one per line. */
export class EvaluationParameterError extends EvaluatorsError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.evaluation-parameter-error');
  override readonly name = 'EvaluationParameterError';
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[]) {
    const errorCount = issues.filter((issue) => issue.severity === 'error').length;
    const heading = `evaluations are not valid (${errorCount} ${errorCount === 1 ? 'problem' : 'problems'}):`;
    super([heading, ...issues.map((issue) => `  ${formatIssue(issue)}`)].join('\n'));
    this.issues = issues;
  }
}
