import { JUDGMENT_STRATEGIES } from '@agentbench/schemas';
import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';

// The strategies are the scenario format's (`judgment.strategy`), so they live with it in schemas.
export { JUDGMENT_STRATEGIES };
export type JudgmentStrategy = (typeof JUDGMENT_STRATEGIES)[number];

export interface JudgmentOptions {
  strategy: JudgmentStrategy;
  /** strategy `threshold` only: the weighted mean score (0..1) must reach it. */
  threshold?: number;
  /** Let an empty list of evaluations pass. Off by default: an empty list proves nothing. */
  allowEmpty?: boolean;
}

/** One evaluator's verdict, as the judgment sees it. */
export interface EvaluationOutcome {
  success: boolean;
  /** 0..1; defaults to 1 for a success and 0 for a failure. */
  score?: number;
  /** Weight in the mean score (not in all_pass/any_pass counting); defaults to 1. */
  weight?: number;
  /** The evaluation passes when its check fails (`success` flips, `score` becomes 1 - score). */
  negate?: boolean;
  /** Set when the evaluator itself failed to run; such an evaluation never passes. */
  error?: unknown;
  /** Shown in the reason, e.g. the evaluator's type or description. */
  name?: string;
}

/** What `judge` decides from a list of evaluation outcomes: the verdict, not the `judgment:` config of a scenario file (schemas' JudgmentConfig). */
export interface JudgmentVerdict {
  passed: boolean;
  /** Weighted mean of the effective scores, 0..1. */
  score: number;
  /** One line a person can read: what passed, what failed and why. */
  reason: string;
}

const SCORE_TOLERANCE = 1e-9;

interface EffectiveOutcome {
  label: string;
  isSuccess: boolean;
  score: number;
  weight: number;
  errorMessage: string | undefined;
}

function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return describeValue(error);
}

function checkOptions(options: JudgmentOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new ScoringError('judgment', `expected an object {strategy, threshold?, allowEmpty?}, found ${describeValue(options)}`);
  }
  if (!(JUDGMENT_STRATEGIES as readonly unknown[]).includes(options.strategy)) {
    throw new ScoringError(
      'judgment.strategy',
      `expected one of ${JUDGMENT_STRATEGIES.join(', ')}, found ${describeValue(options.strategy)}`,
    );
  }
  if (options.strategy === 'threshold') {
    const { threshold } = options;
    if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
      throw new ScoringError('judgment.threshold', `strategy threshold needs a number from 0 to 1, found ${describeValue(threshold)}`);
    }
  } else if (options.threshold !== undefined) {
    throw new ScoringError('judgment.threshold', `is only used by strategy threshold, not ${options.strategy}`);
  }
  if (options.allowEmpty !== undefined && typeof options.allowEmpty !== 'boolean') {
    throw new ScoringError('judgment.allowEmpty', `expected a boolean, found ${describeValue(options.allowEmpty)}`);
  }
}

function effectiveOutcome(result: EvaluationOutcome, index: number): EffectiveOutcome {
  const field = `results[${index}]`;
  if (typeof result !== 'object' || result === null) {
    throw new ScoringError(field, `expected an object {success, score?, weight?, negate?, error?}, found ${describeValue(result)}`);
  }
  if (typeof result.success !== 'boolean') {
    throw new ScoringError(`${field}.success`, `expected a boolean, found ${describeValue(result.success)}`);
  }
  if (result.score !== undefined && (typeof result.score !== 'number' || !(result.score >= 0 && result.score <= 1))) {
    throw new ScoringError(`${field}.score`, `expected a number from 0 to 1, found ${describeValue(result.score)}`);
  }
  if (result.weight !== undefined && (typeof result.weight !== 'number' || !Number.isFinite(result.weight) || result.weight < 0)) {
    throw new ScoringError(`${field}.weight`, `expected a finite number >= 0, found ${describeValue(result.weight)}`);
  }
  const label = result.name === undefined ? `#${index + 1}` : `#${index + 1} ${result.name}`;
  const weight = result.weight ?? 1;
  if (result.error !== undefined && result.error !== null) {
    // Negation must not turn "could not evaluate" into a pass.
    return { label, isSuccess: false, score: 0, weight, errorMessage: errorMessageOf(result.error) };
  }
  const rawScore = result.score ?? (result.success ? 1 : 0);
  const isNegated = result.negate === true;
  return {
    label,
    isSuccess: isNegated ? !result.success : result.success,
    score: isNegated ? 1 - rawScore : rawScore,
    weight,
    errorMessage: undefined,
  };
}

function weightedMean(outcomes: readonly EffectiveOutcome[]): number {
  const totalWeight = outcomes.reduce((sum, outcome) => sum + outcome.weight, 0);
  if (totalWeight === 0) {
    throw new ScoringError('results', 'every weight is 0, so no mean score exists; give at least one evaluation a positive weight');
  }
  return outcomes.reduce((sum, outcome) => sum + outcome.score * outcome.weight, 0) / totalWeight;
}

function formatScore(score: number): string {
  return Number(score.toFixed(3)).toString();
}

function describeFailures(outcomes: readonly EffectiveOutcome[]): string {
  const failures = outcomes.filter((outcome) => !outcome.isSuccess);
  if (failures.length === 0) return '';
  const parts = failures.map((outcome) =>
    outcome.errorMessage === undefined ? outcome.label : `${outcome.label} (error: ${outcome.errorMessage})`,
  );
  return `; failed: ${parts.join(', ')}`;
}

/**
 * Aggregates evaluation outcomes into a verdict.
 * - all_pass: every evaluation passes; any_pass: at least one does;
 *   threshold: the weighted mean score reaches `threshold`.
 * - No vacuous pass: an empty list fails unless `allowEmpty`.
 * - An errored evaluation counts as a failure with score 0, negated or not.
 */
export function judge(options: JudgmentOptions, results: readonly EvaluationOutcome[]): JudgmentVerdict {
  checkOptions(options);
  // Not Array.isArray in the condition: it would narrow a readonly array to any[].
  const isArray: boolean = Array.isArray(results);
  if (!isArray) {
    throw new ScoringError('results', `expected an array of evaluation outcomes, found ${describeValue(results)}`);
  }
  if (results.length === 0) {
    const isAllowed = options.allowEmpty === true;
    return {
      passed: isAllowed,
      score: isAllowed ? 1 : 0,
      reason: isAllowed
        ? 'no evaluations, passed because allowEmpty is set'
        : 'no evaluations: an empty judgment does not pass (set allowEmpty to allow it)',
    };
  }
  const outcomes = results.map(effectiveOutcome);
  const score = weightedMean(outcomes);
  const passedCount = outcomes.filter((outcome) => outcome.isSuccess).length;
  const counts = `${passedCount} of ${outcomes.length} evaluations passed`;
  const failures = describeFailures(outcomes);
  switch (options.strategy) {
    case 'all_pass': {
      const passed = passedCount === outcomes.length;
      return { passed, score, reason: `all_pass: ${counts}${failures}` };
    }
    case 'any_pass': {
      const passed = passedCount > 0;
      return { passed, score, reason: `any_pass: ${counts}${failures}` };
    }
    case 'threshold': {
      const threshold = options.threshold as number;
      // Tolerance for binary floating point: (0.7 + 0.9) / 2 is 0.7999999999999999, and should reach 0.8.
      const passed = score >= threshold - SCORE_TOLERANCE;
      const comparison = passed ? '>=' : '<';
      return {
        passed,
        score,
        reason: `threshold: weighted score ${formatScore(score)} ${comparison} ${formatScore(threshold)}; ${counts}${failures}`,
      };
    }
  }
}
