import { costUnknownText } from '../summary/cost-unknown.js';
import { formatCost, formatErroredNotCounted, formatNumber, formatPercent, formatSeconds } from '../format/format-figures.js';
import { formatAttemptCounts } from '../summary/attempt-counts.js';
import type { ModelBenchmarkResult } from './summarize-model-benchmark.js';

function pad(cells: string[][]): string[] {
  const widths = cells[0]?.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length))) ?? [];
  return cells.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd());
}

/** The benchmark as a plain-text table, one line per model, then the dropped models and errors. */
export function formatBenchTable(result: ModelBenchmarkResult): string {
  const header = ['model', 'attempts', 'errored', 'pass rate (95% CI)', ...Array.from({ length: result.runs }, (_, index) => `pass@${index + 1}`), 'steps', 'tokens', 'cost', 'time', 'failures'];
  const rows = result.entries
    .filter((entry) => !entry.isDropped)
    .map((entry) => {
      const summary = entry.summary;
      if (summary === null) return [entry.model, '0', '0', '–', ...Array.from({ length: result.runs }, () => '–'), '–', '–', '–', '–', 'no attempt recorded'];
      const passAt = Array.from({ length: result.runs }, (_, index) => {
        const estimate = summary.passAtK.find((candidate) => candidate.k === index + 1);
        return estimate === undefined ? '–' : formatPercent(estimate.value, 0);
      });
      const failures = Object.entries(summary.failuresByReason)
        .sort((left, right) => right[1] - left[1])
        .map(([reason, count]) => `${reason} ${count}`)
        .join(', ');
      return [
        entry.model,
        String(summary.attempts),
        String(summary.counts.attempts - summary.counts.ran),
        `${formatPercent(summary.passRate.rate, 0)} (${formatPercent(summary.passRate.interval.lower, 0)}–${formatPercent(summary.passRate.interval.upper, 0)})${summary.erroredNotCounted === 0 ? '' : ` [${formatErroredNotCounted(summary, 0)}]`}`,
        ...passAt,
        formatNumber(summary.meanSteps),
        formatNumber(summary.meanTokens, 0),
        formatCost(summary.meanCostUsd),
        formatSeconds(summary.meanDurationSec),
        failures === '' ? '-' : failures,
      ];
    });
  const lines = pad([header, ...rows]);
  for (const entry of result.entries) {
    if (entry.isDropped) lines.push(`dropped ${entry.model}: the probe got no answer (${entry.probe?.message ?? 'unknown'})`);
    for (const error of entry.errors) lines.push(`error ${entry.model}: ${error}`);
    if (entry.summary !== null && entry.summary.costUnknownModels.length > 0) lines.push(costUnknownText(entry.summary.costUnknownModels));
  }
  // What ran: the records' backend and runtime (`--runtime runsc` shows here), once when every model ran alike.
  const sandboxes = [...new Set(result.entries.filter((entry) => entry.sandbox !== '').map((entry) => entry.sandbox))];
  if (sandboxes.length === 1) lines.push(`ran in: ${sandboxes[0]}`);
  else for (const entry of result.entries) if (entry.sandbox !== '') lines.push(`${entry.model} ran in: ${entry.sandbox}`);
  // What each pass rate is taken over, and the tasks whose attempts it leaves out.
  for (const entry of result.entries) {
    if (entry.summary === null) continue;
    lines.push(`${entry.model}: ${formatAttemptCounts(entry.summary.counts)}`);
    for (const task of entry.summary.counts.unverifiedTasks) lines.push(`  unverified task ${task}: its baseline was not shown to fail; not counted (--include-unvalidated counts it)`);
    const { flagged } = entry;
    if (flagged.attempts > 0) {
      lines.push(`suspicions ${entry.model}: ${flagged.attempts} attempt${flagged.attempts === 1 ? '' : 's'} flagged by the scanners, ${flagged.passed} of them passed (ab report shows where; --fail-on-suspicion fails them)`);
    }
  }
  lines.push(`${result.taskCount} task(s) × ${result.runs} run(s) per model; figures are means per attempt; summary: ${result.summaryFile}`);
  return `${lines.join('\n')}\n`;
}
