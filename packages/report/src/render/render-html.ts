import path from 'node:path';
import type { ReportModel } from '../model/report-model.js';
import { formatReadProblem } from '../model/report-model.js';
import { summarizeReport, type GroupSummary } from '../summary/summarize-report.js';
import { costUnknownText } from '../summary/cost-unknown.js';
import { sandboxFactsOf } from '../summary/sandbox-facts.js';
import { formatAttemptCounts } from '../summary/attempt-counts.js';
import { formatCost, formatErroredNotCounted, formatNumber, formatPercent, formatSeconds } from '../format/format-figures.js';
import { REPORT_SCRIPT } from './html-script.js';
import { REPORT_STYLES } from '../format/html-styles.js';
import { escapeXml as escapeHtml } from '../format/escape-xml.js';
import { isBaselineSource, resultWording, type ResultWording } from './result-wording.js';
import { failureChart, passRateChart } from './svg-charts.js';
import { suspicionLines } from './suspicion-rows.js';
import { describeWeakerVerdicts } from './weaker-verdicts.js';
import { renderValiditySection } from './render-validity-section.js';
import { COMPARISON_STYLES, renderComparisonSection } from '../compare/render-comparison-html.js';
import type { PairedComparison } from '../compare/paired-comparison.js';

export interface HtmlReportOptions {
  /** Turns an absolute artifact path into the link the page uses. Default: relative to `baseDir`. */
  linkFor?: (file: string) => string;
  /** Folder the HTML file will be written to; links are relative to it. Default: the working directory. */
  baseDir?: string;
  title?: string;
  /** Of a report of two run folders: B against A, with the changed tasks' trajectories side by side (see comparePairOfRuns). */
  pairedComparison?: PairedComparison;
}

/** A link from `baseDir` to `file`: relative, with `/`, each segment URL-encoded. */
export function relativeLink(baseDir: string, file: string): string {
  return path
    .relative(baseDir, file)
    .split(path.sep)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/**
 * JSON safe inside `<script>`: `<` is written as `\u003c`, so no `</script>` or `<!--` can end
 * or change the element, and U+2028/U+2029 are escaped for old parsers. JSON.parse reads it back unchanged.
 */
export function embedJson(value: unknown, replacer?: (key: string, value: unknown) => unknown): string {
  return JSON.stringify(value, replacer as never).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * The replacer of the page's data: paths become links, and null fields and empty lists are left
 * out of objects (the page's script puts them back), which keeps a 10,000-row report's blob small.
 */
export function compactRows(linkFor: (file: string) => string): (key: string, value: unknown) => unknown {
  return function (this: unknown, key: string, value: unknown): unknown {
    if ((key === 'file' || key === 'folder') && typeof value === 'string') return linkFor(value);
    if (Array.isArray(this)) return value;
    if (value === null || (Array.isArray(value) && value.length === 0)) return undefined;
    return value;
  };
}

/** In a baseline run, one line saying what the figures count. */
function weakerVerdictsNote(model: ReportModel): string {
  const weaker = describeWeakerVerdicts(model);
  return weaker === undefined ? '' : `<p class="note weaker-verdicts" data-testid="weaker-verdicts">⚠ ${escapeHtml(weaker)}</p>`;
}

function baselineNote(wording: ResultWording, overall: GroupSummary): string {
  if (!wording.isBaseline) return '';
  return `<p class="baseline-note" data-testid="baseline-note"><strong>${wording.headline(overall.passed, overall.attempts)}</strong>. A valid baseline is a task whose tests fail before any fix, as the task says; the rates below count valid baselines, not passed attempts.</p>`;
}

function card(title: string, group: GroupSummary, testId: string): string {
  const interval = `${formatPercent(group.passRate.interval.lower, 0)}–${formatPercent(group.passRate.interval.upper, 0)}`;
  const passAtK = group.passAtK.map((estimate) => `pass@${estimate.k} ${formatPercent(estimate.value, 0)}`).join(' · ');
  return `<div class="card" data-testid="${testId}"><div class="small">${escapeHtml(title)}</div><div class="big">${formatPercent(group.passRate.rate)} <span class="small">(${group.passed}/${group.attempts}, 95% CI ${interval})</span></div><div class="small" data-testid="attempt-counts">${escapeHtml(formatAttemptCounts(group.counts))}</div><div class="small">${escapeHtml(passAtK)}</div><div class="small">${group.failed} failed · ${group.errored} errored${group.erroredNotCounted === 0 ? '' : ` <span data-testid="errored-not-counted">(${escapeHtml(formatErroredNotCounted(group))})</span>`} · mean ${formatNumber(group.meanSteps)} steps · ${formatNumber(group.meanTokens, 0)} tokens · ${formatCost(group.meanCostUsd)} · ${formatSeconds(group.meanDurationSec)}</div>${group.costUnknownModels.length === 0 ? '' : `<div class="small" data-testid="cost-unknown">${escapeHtml(costUnknownText(group.costUnknownModels))}</div>`}</div>`;
}

function comparisonTable(model: ReportModel, summary: ReturnType<typeof summarizeReport>): string {
  if (model.sources.length < 2) return '';
  const header = `<tr><th>Task</th>${model.sources.map((source) => `<th>${escapeHtml(source.label)}</th>`).join('')}</tr>`;
  const body = summary.comparison
    .map((row) => {
      const cells = row.cells
        .map((cell) => {
          if (cell === null) return '<td></td>';
          const kind = cell.passed === cell.total ? 'cell-pass' : cell.passed === 0 ? 'cell-fail' : 'cell-mixed';
          return `<td class="${kind}">${cell.passed}/${cell.total}</td>`;
        })
        .join('');
      return `<tr><td>${escapeHtml(row.taskId)}</td>${cells}</tr>`;
    })
    .join('');
  return `<section id="comparison"><h2>Run folders side by side</h2><div class="cards">${summary.bySource.map((group) => card(group.label, group, 'source-card')).join('')}</div><h3>Passes per task</h3><table class="comparison" data-testid="comparison"><thead>${header}</thead><tbody>${body}</tbody></table></section>`;
}

/** Under the header: what each run folder's attempts ran in (backend, runtime), as their records say. */
function sandboxLines(model: ReportModel): string {
  const lines = model.sources.flatMap((source) => {
    const facts = sandboxFactsOf(model, source);
    return facts === '' ? [] : [`<div class="meta" data-testid="sandbox-facts">${escapeHtml(`${source.label}: ${facts}`)}</div>`];
  });
  return lines.join('');
}

function pairedComparisonSection(paired: PairedComparison | undefined): string {
  if (paired === undefined) return '';
  if ('comparison' in paired) return renderComparisonSection(paired.comparison);
  return `<section id="b-vs-a" data-testid="b-vs-a"><h2>B vs A</h2><p>Not compared: ${escapeHtml(paired.unavailableReason)}</p></section>`;
}

/**
 * One self-contained HTML file (inline CSS, SVG and script; no network): summary cards, charts of
 * pass rate per model and failures by reason, the run folders side by side (for two, B against A
 * with the changed tasks' trajectories side by side, as `ab compare`), and a sortable,
 * filterable, paginated table of every attempt and scenario run whose rows open their timeline,
 * diffs, conversation, evaluations and logs. Rows travel as one JSON blob; the script puts one
 * page of them in the DOM at a time. Large texts are shortened with a link to their file.
 */
export function renderHtmlReport(model: ReportModel, options: HtmlReportOptions = {}): string {
  const summary = summarizeReport(model);
  const baseDir = options.baseDir ?? process.cwd();
  const linkFor = options.linkFor ?? ((file: string) => relativeLink(baseDir, file));
  const title = options.title ?? 'AgentBench report';
  const wording = resultWording(model);
  const data = embedJson(
    { sources: model.sources.map((source) => ({ id: source.id, label: source.label, isBaseline: isBaselineSource(source) })), rows: model.rows },
    compactRows(linkFor),
  );
  const failureCounts = summary.failureReasons.map((reason): [string, number] => [reason, summary.overall.failuresByReason[reason] ?? 0]);
  const charts = [
    passRateChart(summary.byModel, wording.rateChartTitle),
    failureChart(failureCounts, 'Failures by reason'),
    ...(summary.bySource.length > 1 ? [passRateChart(summary.bySource, 'Pass rate per run folder')] : []),
  ];
  const problems =
    model.problems.length === 0
      ? ''
      : `<section id="problems"><h2>Skipped while reading (${model.problems.length})</h2><ul class="problems">${model.problems
          .slice(0, 200)
          .map((problem) => `<li>${escapeHtml(formatReadProblem(problem))}</li>`)
          .join('')}</ul></section>`;
  const suspicions = suspicionLines(model, 200);
  const suspicionSection =
    suspicions.total === 0
      ? ''
      : `<section id="suspicions" data-testid="suspicions"><h2>Suspicions (${suspicions.total} in ${suspicions.rows} attempt${suspicions.rows === 1 ? '' : 's'})</h2><p class="meta">Scanners flag changes that could fool the tests (test-runner configuration, code that patches pytest, <code>os._exit</code>, startup hooks); they do not prove it.</p><table><thead><tr><th>Task</th><th>Model</th><th>Result</th><th>Suspicion</th></tr></thead><tbody>${suspicions.lines
          .map(({ row, text }) => `<tr><td>${escapeHtml(row.taskId)}</td><td>${escapeHtml(row.model ?? row.variant ?? '')}</td><td>${escapeHtml(row.passed ? 'passed' : (row.failureReason ?? 'failed'))}</td><td>${escapeHtml(text)}</td></tr>`)
          .join('')}</tbody></table></section>`;
  const sortableHeaders = [
    ['taskId', 'Task'],
    ['source', 'Run folder'],
    ['model', 'Model'],
    ['variant', 'Variant'],
    ['status', 'Result'],
    ['failureReason', 'Failure reason'],
    ['durationSec', 'Duration'],
    ['steps', 'Steps'],
    ['tokens', 'Tokens'],
    ['costUsd', 'Cost'],
  ]
    .map(([key, label]) => `<th data-sort="${key}" aria-sort="none">${label}</th>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'">
<title>${escapeHtml(title)}</title>
<style>${REPORT_STYLES}${options.pairedComparison === undefined ? '' : COMPARISON_STYLES}</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><div class="meta">Generated ${escapeHtml(model.generatedAt)} from ${model.sources.length} run folder(s): ${model.sources.map((source) => `<code title="${escapeHtml(source.dir)}">${escapeHtml(source.label)}</code>`).join(', ')}</div>${sandboxLines(model)}</header>
<main>
<section id="summary"><h2>Summary</h2><div class="cards">${card(wording.isBaseline ? 'Baseline validation of every task' : 'All attempts', summary.overall, 'overall-card')}</div>${baselineNote(wording, summary.overall)}${weakerVerdictsNote(model)}</section>
<section id="charts"><h2>Charts</h2><div class="charts">${charts.join('')}</div></section>
${comparisonTable(model, summary)}
${pairedComparisonSection(options.pairedComparison)}
${renderValiditySection(model, linkFor)}
${suspicionSection}
<section id="attempts"><h2>Attempts and scenario runs</h2>
<div class="filters">
<label>Search<input id="filter-text" type="search" placeholder="task, model, message"></label>
<label>Run folder<select id="filter-source"><option value="">all</option></select></label>
<label>Model<select id="filter-model"><option value="">all</option></select></label>
<label>Result<select id="filter-status"><option value="">all</option><option value="passed">${wording.passed}</option><option value="failed">${wording.failed}</option><option value="errored">errored</option></select></label>
<label>Failure reason<select id="filter-failure" data-testid="filter-failure"><option value="">all</option></select></label>
<span class="count" id="attempts-count"></span>
</div>
<table id="attempts-table"><thead><tr>${sortableHeaders}</tr></thead><tbody id="attempts-body"></tbody></table>
<nav class="pager" data-testid="pager" aria-label="Pages of attempts"><button type="button" id="page-previous" data-testid="page-previous">Previous</button><span id="page-label" data-testid="page-label"></span><button type="button" id="page-next" data-testid="page-next">Next</button><label>Rows per page<select id="page-size" data-testid="page-size"></select></label></nav>
</section>
${problems}
</main>
<script type="application/json" id="report-data">${data}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
