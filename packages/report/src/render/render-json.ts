import type { ReportModel, ReportRow } from '../model/report-model.js';
import { summarizeReport, type GroupSummary } from '../summary/summarize-report.js';
import { formatAttemptCounts, taskValidityText } from '../summary/attempt-counts.js';

function group(summary: GroupSummary): Record<string, unknown> {
  return {
    key: summary.key,
    label: summary.label,
    attempts: summary.attempts,
    passed: summary.passed,
    failed: summary.failed,
    errored: summary.errored,
    pass_rate: summary.passRate.rate,
    pass_rate_interval: [summary.passRate.interval.lower, summary.passRate.interval.upper],
    errored_not_counted: summary.erroredNotCounted,
    conservative_pass_rate: summary.conservativePassRate.rate,
    pass_at_k: summary.passAtK.map((estimate) => ({ k: estimate.k, value: estimate.value, tasks: estimate.taskCount })),
    mean_steps: summary.meanSteps,
    mean_tokens: summary.meanTokens,
    mean_cost_usd: summary.meanCostUsd,
    total_cost_usd: summary.totalCostUsd,
    cost_unknown_models: summary.costUnknownModels,
    mean_duration_sec: summary.meanDurationSec,
    failures_by_reason: summary.failuresByReason,
    counts: {
      attempts: summary.counts.attempts,
      ran: summary.counts.ran,
      counted: summary.counts.counted,
      passed: summary.counts.countedPassed,
      errored_by_reason: summary.counts.erroredByReason,
      unverified_not_counted: summary.counts.unverifiedNotCounted,
      unverified_tasks: summary.counts.unverifiedTasks,
      unvalidated: summary.counts.unvalidated,
      text: formatAttemptCounts(summary.counts),
    },
  };
}

function row(item: ReportRow): Record<string, unknown> {
  return {
    id: item.id,
    source: item.sourceId,
    kind: item.kind,
    task_id: item.taskId,
    suite: item.suite,
    model: item.model,
    variant: item.variant,
    combination: item.combination,
    status: item.status,
    passed: item.passed,
    failure_reason: item.failureReason,
    stop_reason: item.stopReason,
    duration_sec: item.durationSec,
    steps: item.steps,
    input_tokens: item.inputTokens,
    output_tokens: item.outputTokens,
    cost_usd: item.costUsd,
    started_at: item.startedAt,
    message: item.detail.message ?? null,
    folder: item.folder,
    ...(item.backend === undefined ? {} : { backend: item.backend }),
    ...(item.runtime === undefined ? {} : { runtime: item.runtime }),
    ...(item.notStarted === undefined ? {} : { not_started: item.notStarted }),
    ...(item.taskValidity === undefined
      ? {}
      : { task_validity: { status: item.taskValidity.status, reason: item.taskValidity.reason ?? null, counted: item.taskValidity.isCounted, mark: taskValidityText(item.taskValidity) ?? null } }),
    ...(item.retriedTries === undefined ? {} : { retried_tries: item.retriedTries.map((earlier) => ({ try: earlier.try, failure_reason: earlier.failureReason, failure_class: earlier.failureClass })) }),
  };
}

/** The JSON summary (snake_case, like every AgentBench file): figures overall, per folder and per model, and one entry per row. */
export function renderJsonReport(model: ReportModel): string {
  const summary = summarizeReport(model);
  const document = {
    report_version: model.version,
    generated_at: model.generatedAt,
    sources: model.sources.map((source) => ({ id: source.id, label: source.label, dir: source.dir, run: source.run, matrix: source.matrix, rows: source.rowCount })),
    summary: {
      overall: group(summary.overall),
      by_source: summary.bySource.map(group),
      by_model: summary.byModel.map(group),
      failure_reasons: summary.failureReasons,
    },
    rows: model.rows.map(row),
    problems: model.problems,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
