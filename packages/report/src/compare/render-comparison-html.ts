import { REPORT_STYLES } from '../format/html-styles.js';
import { escapeXml as escapeHtml } from '../format/escape-xml.js';
import { FIGURE_LABELS, OUTCOME_LABELS, costUnknownLines, formatFigure, formatFigureDelta, mcnemarLine, pairsLine, passRateLine, suspicionLines, verdictLine } from './comparison-phrases.js';
import { attemptsOfGroup, groupChangedTasks } from './group-changed-tasks.js';
import type { TrajectoryDivergence, RunComparison, ToolCallStep } from './run-comparison.js';

/** The comparison section's own CSS, beside REPORT_STYLES (on `ab compare`'s page and in `ab report A B`). */
export const COMPARISON_STYLES = `
.trajectories { width: 100%; table-layout: fixed; }
.trajectories td { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; word-break: break-word; }
.trajectories tr.diverges td { background: #fff8c5; border-top: 2px solid var(--error); }
.trajectories td.index { width: 3em; color: var(--muted); }
.regression { color: var(--fail); } .fix { color: var(--pass); }
.changed-task .count { font-weight: 600; }
.trajectories pre.diff { margin: 4px 0 0; white-space: pre-wrap; }
`;

/** A patch as a diff: each line escaped, added and removed lines marked (the same classes as the report's diffs). */
export function diffHtml(patch: string): string {
  const lines = patch.replace(/\n$/, '').split('\n').map((line) => {
    const kind = line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') ? 'line-meta' : line.startsWith('+') ? 'line-add' : line.startsWith('-') ? 'line-del' : line.startsWith('@@') ? 'line-hunk' : '';
    return `<span${kind === '' ? '' : ` class="${kind}"`}>${escapeHtml(line)}\n</span>`;
  });
  return `<pre class="diff" data-testid="patch-diff">${lines.join('')}</pre>`;
}

function stepCell(step: ToolCallStep | undefined): string {
  if (step === undefined) return '<td class="empty">–</td>';
  // An apply_patch's diff reads as a diff, not as one escaped JSON string.
  if (step.patch !== undefined) return `<td><strong>${escapeHtml(step.tool)}</strong>${diffHtml(step.patch)}</td>`;
  return `<td><strong>${escapeHtml(step.tool)}</strong> ${escapeHtml(step.arguments)}</td>`;
}

function trajectoriesTable(divergence: TrajectoryDivergence): string {
  const length = Math.max(divergence.trajectoryA.length, divergence.trajectoryB.length);
  const rows: string[] = [];
  for (let index = 0; index < length; index += 1) {
    const isDivergence = index === divergence.index;
    rows.push(`<tr${isDivergence ? ' class="diverges" data-testid="divergence-row"' : ''}><td class="index">${index + 1}</td>${stepCell(divergence.trajectoryA[index])}${stepCell(divergence.trajectoryB[index])}</tr>`);
  }
  const omitted = divergence.omittedStepsA + divergence.omittedStepsB > 0 ? `<p class="small">Not shown: ${divergence.omittedStepsA} later calls of A, ${divergence.omittedStepsB} of B.</p>` : '';
  return `<table class="trajectories"><thead><tr><th class="index">#</th><th>A</th><th>B</th></tr></thead><tbody>${rows.join('')}</tbody></table>${omitted}`;
}

/**
 * The comparison as one `<section>` (summary, figure deltas, and each changed task's two
 * trajectories side by side with the first differing tool call marked), for a page of its own
 * (`renderComparisonHtml`) or inside another report.
 */
export function renderComparisonSection(comparison: RunComparison): string {
  const figures = comparison.figures
    .map(
      (figure) =>
        `<tr><td>${FIGURE_LABELS[figure.name]}</td><td>${formatFigure(figure.name, figure.meanA)}</td><td>${formatFigure(figure.name, figure.meanB)}</td><td>${formatFigureDelta(figure.name, figure.meanDelta)}</td><td>${formatFigure(figure.name, figure.totalA)}</td><td>${formatFigure(figure.name, figure.totalB)}</td><td>${formatFigureDelta(figure.name, figure.totalDelta)}</td><td>${figure.pairs}</td></tr>`,
    )
    .join('');
  const changed = groupChangedTasks(comparison)
    .map(({ divergence, pairs }) => {
      const where = divergence.index === null ? escapeHtml(divergence.note ?? '') : `first divergence at tool call ${divergence.index + 1}`;
      const count = pairs.length === 1 ? '' : ` <span class="count" data-testid="changed-count">${pairs.length}×</span>`;
      const shownRepeat = pairs.length === 1 ? '' : `<p class="small">The trajectories of repeat #${divergence.repeat + 1}; the others of this row reach the same divergence.</p>`;
      return `<details class="changed-task" data-testid="changed-task" open><summary><span class="${divergence.outcome}">${escapeHtml(OUTCOME_LABELS[divergence.outcome])}</span> <code>${escapeHtml(divergence.taskId)}</code>${count}: ${where} · <span class="small" data-testid="changed-attempts">${escapeHtml(attemptsOfGroup(pairs))}</span></summary>${shownRepeat}${trajectoriesTable(divergence)}</details>`;
    })
    .join('');
  const pairs = comparison.pairs
    .map((pair) => `<tr><td><code>${escapeHtml(pair.taskId)}</code></td><td>${pair.repeat + 1}</td><td class="${pair.outcome}">${escapeHtml(OUTCOME_LABELS[pair.outcome])}</td><td>${escapeHtml(pair.a.failureReason ?? pair.a.status)}</td><td>${escapeHtml(pair.b.failureReason ?? pair.b.status)}</td><td>${escapeHtml(`${pair.a.model ?? 'unknown'} → ${pair.b.model ?? 'unknown'}`)}</td></tr>`)
    .join('');
  const suspicions = suspicionLines(comparison);
  const suspicionList = suspicions.length === 0 ? '' : `<h2>Suspicions (${suspicions.length})</h2><p>Scanners flag, they do not prove.</p><ul data-testid="compare-suspicions">${suspicions.map((line) => `<li><code>${escapeHtml(line)}</code></li>`).join('')}</ul>\n`;
  return `<section id="b-vs-a" data-testid="b-vs-a">
<h2>B vs A</h2>
<ul>
<li>A: <code>${escapeHtml(comparison.runA.folder)}</code></li>
<li>B: <code>${escapeHtml(comparison.runB.folder)}</code></li>
<li><strong>${escapeHtml(verdictLine(comparison))}</strong></li>
<li>${escapeHtml(pairsLine(comparison))}</li>
<li>${escapeHtml(passRateLine(comparison))}</li>
<li>${escapeHtml(mcnemarLine(comparison))}</li>
${costUnknownLines(comparison).map((line) => `<li data-testid="cost-unknown">${escapeHtml(line)}</li>`).join('')}
</ul>
<table><thead><tr><th>figure</th><th>mean A</th><th>mean B</th><th>Δ mean</th><th>total A</th><th>total B</th><th>Δ total</th><th>pairs</th></tr></thead><tbody>${figures}</tbody></table>
<h2>Changed tasks (${comparison.divergences.length})</h2>
${changed === '' ? '<p>No task changed outcome.</p>' : changed}
${suspicionList}<h2>Every pair</h2>
<table><thead><tr><th>task</th><th>repeat</th><th>outcome</th><th>A</th><th>B</th><th>models</th></tr></thead><tbody>${pairs}</tbody></table>
</section>`;
}

/** `ab compare --format html`: one self-contained page (inline CSS, no script, no network). */
export function renderComparisonHtml(comparison: RunComparison, options: { title?: string } = {}): string {
  const title = options.title ?? 'AgentBench comparison';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'">
<title>${escapeHtml(title)}</title>
<style>${REPORT_STYLES}${COMPARISON_STYLES}</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><div class="meta">Generated ${escapeHtml(comparison.generatedAt)}</div></header>
<main>
${renderComparisonSection(comparison)}
</main>
</body>
</html>
`;
}
