import type { ReportModel } from '../model/report-model.js';
import { formatReadProblem } from '../model/report-model.js';
import { summarizeReport, type GroupSummary } from '../summary/summarize-report.js';
import { costUnknownText } from '../summary/cost-unknown.js';
import { sandboxFactsOf } from '../summary/sandbox-facts.js';
import { formatCost, formatErroredNotCounted, formatNumber, formatPercent, formatSeconds } from '../format/format-figures.js';
import { resultWording } from './result-wording.js';
import { formatAttemptCounts, taskValidityMark, taskValidityText } from '../summary/attempt-counts.js';
import { suspicionLines } from './suspicion-rows.js';
import { describeWeakerVerdicts } from './weaker-verdicts.js';
import type { PairedComparison } from '../compare/paired-comparison.js';
import { renderComparisonMarkdown } from '../compare/render-comparison-markdown.js';

/** Table cells must not break the table: pipes escaped, line breaks folded. */
function cell(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replace(/\r?\n/g, ' ');
}

function passAtKText(summary: GroupSummary): string {
  return summary.passAtK.map((estimate) => `pass@${estimate.k} ${formatPercent(estimate.value, 0)}`).join(', ');
}

function groupTable(title: string, groups: readonly GroupSummary[]): string[] {
  const lines = [
    `| ${title} | Attempts | Passed | Pass rate (95% CI) | pass@k | Mean steps | Mean tokens | Mean cost | Mean time |`,
    '|---|---:|---:|---|---|---:|---:|---:|---:|',
  ];
  for (const group of groups) {
    const interval = `${formatPercent(group.passRate.interval.lower, 0)}–${formatPercent(group.passRate.interval.upper, 0)}`;
    lines.push(
      `| ${cell(group.label)} | ${group.attempts} | ${group.passed} | ${formatPercent(group.passRate.rate)} (${interval}) | ${passAtKText(group)} | ${formatNumber(group.meanSteps)} | ${formatNumber(group.meanTokens, 0)} | ${formatCost(group.meanCostUsd)} | ${formatSeconds(group.meanDurationSec)} |`,
    );
  }
  return lines;
}

/** A Markdown summary for pull-request comments: headline, per-model and per-folder tables, failures, the failed rows. */
export function renderMarkdownReport(model: ReportModel, options: { maxFailedRows?: number; pairedComparison?: PairedComparison } = {}): string {
  const summary = summarizeReport(model);
  const { overall } = summary;
  const lines: string[] = [
    '## AgentBench report',
    '',
    `**${resultWording(model).isBaseline ? resultWording(model).headline(overall.passed, overall.attempts) : formatAttemptCounts(overall.counts)}** (${formatPercent(overall.passRate.rate)}, 95% CI ${formatPercent(overall.passRate.interval.lower)}–${formatPercent(overall.passRate.interval.upper)})` +
      `${overall.failed > 0 ? `, ${overall.failed} failed` : ''}${overall.errored > 0 ? `, ${overall.errored} errored` : ''}${overall.erroredNotCounted > 0 ? ` (${formatErroredNotCounted(overall)})` : ''}` +
      ` · ${model.sources.length} run folder${model.sources.length === 1 ? '' : 's'}: ${model.sources.map((source) => `\`${source.label}\``).join(', ')}`,
    '',
  ];
  const sandboxes = model.sources.flatMap((source) => {
    const facts = sandboxFactsOf(model, source);
    return facts === '' ? [] : [`\`${source.label}\`: ${facts}`];
  });
  if (sandboxes.length > 0) lines.push(`Ran in: ${sandboxes.join(' · ')}`, '');
  const weaker = describeWeakerVerdicts(model);
  if (weaker !== undefined) lines.push(`> ⚠️ ${weaker}`, '');
  if (summary.byModel.length > 0) lines.push(...groupTable('Model', summary.byModel), '');
  if (overall.costUnknownModels.length > 0) lines.push(`Mean cost \`–\`: ${costUnknownText(overall.costUnknownModels)}.`, '');
  if (summary.bySource.length > 1) lines.push(...groupTable('Run folder', summary.bySource), '');
  if (summary.failureReasons.length > 0) {
    lines.push('| Failure reason | Count |', '|---|---:|');
    for (const reason of summary.failureReasons) lines.push(`| ${cell(reason)} | ${overall.failuresByReason[reason]} |`);
    lines.push('');
  }
  if (summary.bySource.length > 1 && summary.comparison.length > 0) {
    lines.push(`| Task | ${summary.bySource.map((source) => cell(source.label)).join(' | ')} |`, `|---|${summary.bySource.map(() => ':---:').join('|')}|`);
    for (const row of summary.comparison) {
      const cells = row.cells.map((entry) => (entry === null ? '' : entry.total === 1 ? (entry.passed === 1 ? '✅' : '❌') : `${entry.passed}/${entry.total}`));
      lines.push(`| ${cell(row.taskId)} | ${cells.join(' | ')} |`);
    }
    lines.push('');
  }
  const marked = model.rows.filter((row) => row.taskValidity?.status === 'unverified');
  if (marked.length > 0) {
    lines.push('| Unverified task | Model | Result | |', '|---|---|---|---|');
    for (const row of marked) lines.push(`| ${cell(row.taskId)} | ${cell(row.model ?? row.variant ?? '')} | ${row.status} | ${cell(taskValidityText(row.taskValidity) ?? '')} |`);
    lines.push('');
  }
  const failed = model.rows.filter((row) => !row.passed);
  const maxFailedRows = options.maxFailedRows ?? 25;
  if (failed.length > 0) {
    lines.push('<details><summary>Failed attempts</summary>', '', '| Task | Model | Reason | Message |', '|---|---|---|---|');
    for (const row of failed.slice(0, maxFailedRows)) {
      const reason = row.failureReason ?? (row.notStarted === undefined ? 'unclassified' : `not started: ${row.notStarted}`);
      const mark = taskValidityMark(row.taskValidity);
      lines.push(`| ${cell(row.taskId)}${mark === undefined ? '' : ` (${mark})`} | ${cell(row.model ?? row.variant ?? '')} | ${cell(reason)} | ${cell((row.detail.message ?? row.detail.errors[0] ?? '').slice(0, 200))} |`);
    }
    if (failed.length > maxFailedRows) lines.push(`| … ${failed.length - maxFailedRows} more | | | |`);
    lines.push('', '</details>', '');
  }
  const suspicions = suspicionLines(model, maxFailedRows);
  if (suspicions.total > 0) {
    // Open, not folded: a pass a scanner flagged is what a reviewer must not miss.
    lines.push(`### Suspicions (${suspicions.total} in ${suspicions.rows} attempt${suspicions.rows === 1 ? '' : 's'}; scanners flag, they do not prove)`, '', '| Task | Model | Result | Suspicion |', '|---|---|---|---|');
    for (const { row, text } of suspicions.lines) {
      lines.push(`| ${cell(row.taskId)} | ${cell(row.model ?? row.variant ?? '')} | ${row.passed ? 'passed' : cell(row.failureReason ?? 'failed')} | ${cell(text.slice(0, 300))} |`);
    }
    if (suspicions.total > suspicions.lines.length) lines.push(`| … ${suspicions.total - suspicions.lines.length} more | | | |`);
    lines.push('');
  }
  if (model.problems.length > 0) {
    lines.push(`<details><summary>${model.problems.length} unreadable line(s) or file(s) skipped</summary>`, '');
    for (const problem of model.problems.slice(0, 20)) lines.push(`- \`${formatReadProblem(problem).replaceAll('`', "'")}\``);
    lines.push('', '</details>', '');
  }
  const paired = options.pairedComparison;
  if (paired !== undefined) lines.push('comparison' in paired ? renderComparisonMarkdown(paired.comparison) : `## B vs A\n\nNot compared: ${paired.unavailableReason}`);
  return `${lines.join('\n').trimEnd()}\n`;
}
