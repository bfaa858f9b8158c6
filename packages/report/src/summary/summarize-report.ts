import { isFailureReason, summarizeAttempts, type AttemptLike, type KEstimate, type PassRate } from '@agentbench/scoring';
import type { ReportModel, ReportRow } from '../model/report-model.js';
import { costUnknownModels } from './cost-unknown.js';
import { countAttempts, isLeftOutOfPassRate, type AttemptCounts } from './attempt-counts.js';

/** Figures of a group of rows (a run folder, a model, everything). */
export interface GroupSummary {
  key: string;
  label: string;
  attempts: number;
  passed: number;
  failed: number;
  errored: number;
  /** Attempts whose every try failed on infrastructure: left out of `passRate` and `passAtK` ("N errored, not counted"). */
  erroredNotCounted: number;
  /** Pass rate with its 95% Wilson interval, over the counted attempts. */
  passRate: PassRate;
  /** The conservative rate: every attempt, the uncounted errored ones as failures. */
  conservativePassRate: PassRate;
  /** pass@k over the repeats of each task (k = 1 and the fewest repeats of any task). */
  passAtK: KEstimate[];
  /** Means over the rows that report the figure; null when none does. */
  meanSteps: number | null;
  meanTokens: number | null;
  meanCostUsd: number | null;
  meanDurationSec: number | null;
  totalCostUsd: number | null;
  /** Models of the group whose attempts report no cost (no price): their cost is unknown, not $0. */
  costUnknownModels: string[];
  /** Failed and errored rows per failure reason (reasons with none left out). */
  failuresByReason: Record<string, number>;
  /** What the pass rate is taken over (`2/5 ran; 2/2 passed; 3 errored: no script`). */
  counts: AttemptCounts;
}

export interface ComparisonRow {
  taskId: string;
  /** One cell per source, in source order; null when the source has no row of this task. */
  cells: Array<{ passed: number; total: number } | null>;
}

export interface ReportSummary {
  overall: GroupSummary;
  bySource: GroupSummary[];
  /** Grouped by model (or the variant when there is no model, e.g. `baseline`, `scripted`). */
  byModel: GroupSummary[];
  /** Every failure reason seen, most frequent first. */
  failureReasons: string[];
  /** Task by source pass counts: the side-by-side comparison of run folders. */
  comparison: ComparisonRow[];
}

/** The label rows are grouped by in per-model figures. */
export function modelLabelOf(row: ReportRow): string {
  return row.model ?? row.variant ?? 'unknown';
}

function toAttemptLike(row: ReportRow): AttemptLike {
  const reason = row.failureReason !== null && isFailureReason(row.failureReason) ? row.failureReason : null;
  return {
    task_id: row.taskId,
    result: { passed: row.passed, failure_reason: reason },
    metrics: { steps: row.steps, input_tokens: row.inputTokens, output_tokens: row.outputTokens, cost_usd: row.costUsd },
    duration_sec: row.durationSec,
    // Errored attempts and those of unverified tasks are left out of the pass rate alike.
    errored: isLeftOutOfPassRate(row),
  };
}

/** Summarises rows with @agentbench/scoring (Wilson interval, pass@k, means); failure reasons beyond the taxonomy are counted too. */
export function summarizeGroup(key: string, label: string, rows: readonly ReportRow[]): GroupSummary {
  const summary = summarizeAttempts(rows.map(toAttemptLike));
  const failuresByReason: Record<string, number> = {};
  for (const row of rows) {
    if (row.passed) continue;
    const reason = row.failureReason ?? (row.notStarted === undefined ? 'UNCLASSIFIED' : `not started: ${row.notStarted}`);
    failuresByReason[reason] = (failuresByReason[reason] ?? 0) + 1;
  }
  const costs = rows.map((row) => row.costUsd).filter((cost): cost is number => typeof cost === 'number');
  return {
    key,
    label,
    attempts: rows.length,
    passed: rows.filter((row) => row.status === 'passed').length,
    failed: rows.filter((row) => row.status === 'failed').length,
    errored: rows.filter((row) => row.status === 'errored').length,
    erroredNotCounted: rows.filter((row) => row.isErroredNotCounted === true).length,
    passRate: summary.passRate,
    conservativePassRate: summary.conservativePassRate,
    passAtK: summary.passAtK,
    meanSteps: summary.steps.mean,
    meanTokens: summary.tokens.total.mean,
    meanCostUsd: summary.costUsd.mean,
    meanDurationSec: summary.durationSec.mean,
    totalCostUsd: costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0),
    costUnknownModels: costUnknownModels(rows),
    failuresByReason,
    counts: countAttempts(rows),
  };
}

function groupBy(rows: readonly ReportRow[], keyOf: (row: ReportRow) => string): Map<string, ReportRow[]> {
  const groups = new Map<string, ReportRow[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [row]);
    else group.push(row);
  }
  return groups;
}

/** The figures every renderer shows: overall, per run folder, per model, failures and the task-by-folder comparison. */
export function summarizeReport(model: ReportModel): ReportSummary {
  const overall = summarizeGroup('all', 'all', model.rows);
  const bySource = model.sources.map((source) => summarizeGroup(source.id, source.label, model.rows.filter((row) => row.sourceId === source.id)));
  const byModel = [...groupBy(model.rows, modelLabelOf)].map(([label, rows]) => summarizeGroup(label, label, rows)).sort((left, right) => left.label.localeCompare(right.label));
  const failureReasons = Object.entries(overall.failuresByReason)
    .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
    .map(([reason]) => reason);
  const comparison: ComparisonRow[] = [...groupBy(model.rows, (row) => row.taskId)]
    .map(([taskId, rows]) => ({
      taskId,
      cells: model.sources.map((source) => {
        const inSource = rows.filter((row) => row.sourceId === source.id);
        return inSource.length === 0 ? null : { passed: inSource.filter((row) => row.passed).length, total: inSource.length };
      }),
    }))
    .sort((left, right) => left.taskId.localeCompare(right.taskId));
  return { overall, bySource, byModel, failureReasons, comparison };
}
