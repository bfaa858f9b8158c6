import { FAILURE_REASONS, type FailureReason } from '@agentbench/schemas';
import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';
import { isFailureReason } from '../taxonomy/failure-precedence.js';
import { checkCount } from './check-count.js';
import { emptyFailureCounts, type FailureCounts } from './failure-counts.js';
import { meanFigure, type MeanFigure } from './mean-figure.js';
import { passAtK, passHatK } from './pass-at-k.js';
import { passRate, type PassRate } from './wilson-interval.js';

/** The fields of an AttemptRecord that the summary reads (snake_case, as on disk). */
export interface AttemptLike {
  /** Groups repeated attempts of one task for pass@k and pass^k. */
  task_id?: string;
  result: { passed: boolean; failure_reason?: FailureReason | null };
  metrics?: {
    input_tokens?: number | null;
    output_tokens?: number | null;
    cost_usd?: number | null;
    steps?: number | null;
  } | null;
  duration_sec?: number | null;
  /** Every try of the attempt failed on infrastructure: left out of the pass rate and pass@k, counted in `errored`. */
  errored?: boolean | null;
}

export interface SummarizeOptions {
  /**
   * The k values for pass@k and pass^k. Default: 1 and the smallest number of attempts any
   * task has (so 5 repeats per task give pass@1, pass@5, pass^1 and pass^5).
   */
  k?: readonly number[];
  /** Standard normal quantile of the pass rate's Wilson interval; default 1.96 (95%). */
  z?: number;
}

/** A per-task estimate averaged over the tasks that have at least k attempts. */
export interface KEstimate {
  k: number;
  /** Mean over the counted tasks; null when no task has k attempts. */
  value: number | null;
  /** Tasks with at least k attempts, which the mean covers. */
  taskCount: number;
  /** Tasks with fewer than k attempts, left out because the estimator needs k. */
  skippedTaskCount: number;
}

export interface TaskRepeatSummary {
  /** The record's task_id; '' for records without one. */
  taskId: string;
  attempts: number;
  passes: number;
  /** Every repeat of this task passed: with k repeats, the all-k-passed flag of pass^k. */
  isEveryAttemptPassed: boolean;
}

export interface AttemptSummary {
  attempts: number;
  /** Attempts left out of `passRate`, pass@k and pass^k because every try failed on infrastructure ("N errored, not counted"). */
  errored: number;
  /** Over the counted attempts (all but the errored ones). */
  passRate: PassRate;
  /** The conservative rate: over every attempt, the errored ones counted as failures. */
  conservativePassRate: PassRate;
  passAtK: KEstimate[];
  passHatK: KEstimate[];
  tasks: TaskRepeatSummary[];
  tokens: { input: MeanFigure; output: MeanFigure; total: MeanFigure };
  costUsd: MeanFigure;
  steps: MeanFigure;
  durationSec: MeanFigure;
  /** Failed attempts per FailureReason (every reason present, 0 when absent). */
  failuresByReason: FailureCounts;
  /** Failed attempts whose failure_reason is null or missing: a record that should say why. */
  unclassifiedFailures: number;
}

function checkRecord(record: AttemptLike, index: number): void {
  const field = `records[${index}]`;
  if (typeof record !== 'object' || record === null) {
    throw new ScoringError(field, `expected an attempt record object, found ${describeValue(record)}`);
  }
  if (typeof record.result !== 'object' || record.result === null) {
    throw new ScoringError(`${field}.result`, `expected an object {passed, failure_reason}, found ${describeValue(record.result)}`);
  }
  if (typeof record.result.passed !== 'boolean') {
    throw new ScoringError(`${field}.result.passed`, `expected a boolean, found ${describeValue(record.result.passed)}`);
  }
  const reason = record.result.failure_reason;
  if (reason !== null && reason !== undefined && !isFailureReason(reason)) {
    throw new ScoringError(
      `${field}.result.failure_reason`,
      `expected null or one of ${FAILURE_REASONS.join(', ')}, found ${describeValue(reason)}`,
    );
  }
  if (record.task_id !== undefined && typeof record.task_id !== 'string') {
    throw new ScoringError(`${field}.task_id`, `expected a string, found ${describeValue(record.task_id)}`);
  }
}

function groupByTask(records: readonly AttemptLike[]): TaskRepeatSummary[] {
  const byTask = new Map<string, TaskRepeatSummary>();
  for (const record of records) {
    const taskId = record.task_id ?? '';
    const summary = byTask.get(taskId) ?? { taskId, attempts: 0, passes: 0, isEveryAttemptPassed: true };
    summary.attempts += 1;
    if (record.result.passed) summary.passes += 1;
    else summary.isEveryAttemptPassed = false;
    byTask.set(taskId, summary);
  }
  return [...byTask.values()];
}

function estimate(tasks: readonly TaskRepeatSummary[], k: number, estimator: typeof passAtK): KEstimate {
  const counted = tasks.filter((task) => task.attempts >= k);
  const values = counted.map((task) => estimator({ attempts: task.attempts, passes: task.passes, k }));
  return {
    k,
    value: values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length,
    taskCount: counted.length,
    skippedTaskCount: tasks.length - counted.length,
  };
}

function defaultKValues(tasks: readonly TaskRepeatSummary[]): number[] {
  if (tasks.length === 0) return [1];
  const fewestAttempts = Math.min(...tasks.map((task) => task.attempts));
  return fewestAttempts > 1 ? [1, fewestAttempts] : [1];
}

/**
 * Suite metrics from attempt records (errored ones, `errored: true`, left out of the pass rate
 * and pass@k but counted, with a conservative rate that counts them as failures): pass rate with a Wilson interval, pass@k and pass^k
 * averaged over tasks, mean tokens, cost, steps and duration per attempt (over the attempts
 * that report each figure), and failures counted per FailureReason.
 */
export function summarizeAttempts(records: readonly AttemptLike[], options: SummarizeOptions = {}): AttemptSummary {
  // Not Array.isArray in the condition: it would narrow a readonly array to any[].
  const isArray: boolean = Array.isArray(records);
  if (!isArray) {
    throw new ScoringError('records', `expected an array of attempt records, found ${describeValue(records)}`);
  }
  records.forEach(checkRecord);
  const counted = records.filter((record) => record.errored !== true);
  const tasks = groupByTask(counted);
  const kValues = options.k ?? defaultKValues(tasks);
  kValues.forEach((k, index) => checkCount(`options.k[${index}]`, k, 1));

  const passedCount = counted.filter((record) => record.result.passed).length;
  const intervalOptions = options.z === undefined ? {} : { z: options.z };
  const failuresByReason = emptyFailureCounts();
  let unclassifiedFailures = 0;
  for (const record of records) {
    if (record.result.passed) continue;
    const reason = record.result.failure_reason;
    if (reason === null || reason === undefined) unclassifiedFailures += 1;
    else failuresByReason[reason] += 1;
  }

  const figure = (name: string, read: (record: AttemptLike) => number | null | undefined): MeanFigure =>
    meanFigure(records.map(read), (index) => `records[${index}].${name}`);
  const totalTokens = (record: AttemptLike): number | null => {
    const input = record.metrics?.input_tokens;
    const output = record.metrics?.output_tokens;
    // A total needs both halves; half a figure would undercount.
    return typeof input === 'number' && typeof output === 'number' ? input + output : null;
  };

  return {
    attempts: records.length,
    errored: records.length - counted.length,
    passRate: passRate(passedCount, counted.length, intervalOptions),
    conservativePassRate: passRate(passedCount, records.length, intervalOptions),
    passAtK: kValues.map((k) => estimate(tasks, k, passAtK)),
    passHatK: kValues.map((k) => estimate(tasks, k, passHatK)),
    tasks,
    tokens: {
      input: figure('metrics.input_tokens', (record) => record.metrics?.input_tokens),
      output: figure('metrics.output_tokens', (record) => record.metrics?.output_tokens),
      total: figure('metrics.input_tokens+output_tokens', totalTokens),
    },
    costUsd: figure('metrics.cost_usd', (record) => record.metrics?.cost_usd),
    steps: figure('metrics.steps', (record) => record.metrics?.steps),
    durationSec: figure('duration_sec', (record) => record.duration_sec),
    failuresByReason,
    unclassifiedFailures,
  };
}
