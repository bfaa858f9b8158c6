import { FIGURE_LABELS, callText, costUnknownLines, formatFigure, formatFigureDelta, mcnemarLine, pairsLine, passRateLine, suspicionLines, verdictLine } from './comparison-phrases.js';
import { attemptsOfGroup, groupChangedTasks } from './group-changed-tasks.js';
import type { RunComparison } from './run-comparison.js';

/** Pull-request comments cap at 65,536 characters; the changed-task table stops well before. */
export const MAX_MARKDOWN_CHANGED_ROWS = 50;

/** A table cell: pipes escaped, line breaks folded, code in backticks that cannot close early. */
function cell(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replace(/\r?\n/g, ' ');
}

function code(text: string): string {
  return `<code>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '&#124;').replace(/\r?\n/g, ' ')}</code>`;
}

/** `ab compare --format md`: a pull-request comment (GitHub-flavoured Markdown). */
export function renderComparisonMarkdown(comparison: RunComparison): string {
  const { runA, runB } = comparison;
  const verdict = verdictLine(comparison);
  const icon = comparison.verdict.isSignificantlyWorse ? '🔴' : comparison.verdict.isSignificantlyBetter ? '🟢' : '⚪';
  const lines = [
    `## AgentBench: B vs A`,
    '',
    `**${icon} ${verdict}**`,
    '',
    `- A: \`${cell(runA.folder)}\`${runA.runId === null ? '' : ` (run \`${runA.runId}\`)`}`,
    `- B: \`${cell(runB.folder)}\`${runB.runId === null ? '' : ` (run \`${runB.runId}\`)`}`,
    `- ${pairsLine(comparison)}`,
    `- ${passRateLine(comparison)}`,
    `- ${mcnemarLine(comparison)}`,
    '',
    '| figure | mean A | mean B | Δ mean | total A | total B | Δ total | pairs |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...comparison.figures.map(
      (figure) =>
        `| ${FIGURE_LABELS[figure.name]} | ${formatFigure(figure.name, figure.meanA)} | ${formatFigure(figure.name, figure.meanB)} | ${formatFigureDelta(figure.name, figure.meanDelta)} | ${formatFigure(figure.name, figure.totalA)} | ${formatFigure(figure.name, figure.totalB)} | ${formatFigureDelta(figure.name, figure.totalDelta)} | ${figure.pairs} |`,
    ),
  ];
  const unknownCosts = costUnknownLines(comparison);
  if (unknownCosts.length > 0) lines.push('', ...unknownCosts.map((line) => `- ${cell(line)}`));
  if (comparison.divergences.length > 0) {
    const groups = groupChangedTasks(comparison);
    const shown = groups.slice(0, MAX_MARKDOWN_CHANGED_ROWS);
    lines.push(
      '',
      `### Changed tasks (${comparison.divergences.length})`,
      '',
      '| task | count | change | A | B | first divergence | A did | B did | attempts |',
      '| --- | ---: | --- | --- | --- | --- | --- | --- | --- |',
      ...shown.map(({ divergence, pairs }) => {
        const pair = pairs[0];
        const where = divergence.index === null ? cell(divergence.note ?? '') : `tool call ${divergence.index + 1}`;
        const sides = divergence.index === null ? ['', ''] : [code(callText(divergence.a, 80)), code(callText(divergence.b, 80))];
        return `| ${cell(divergence.taskId)} | ${pairs.length} | ${divergence.outcome === 'regression' ? '❌ pass → fail' : '✅ fail → pass'} | ${cell(pair?.a.failureReason ?? pair?.a.status ?? '')} | ${cell(pair?.b.failureReason ?? pair?.b.status ?? '')} | ${where} | ${sides[0]} | ${sides[1]} | ${cell(attemptsOfGroup(pairs))} |`;
      }),
    );
    if (groups.length > shown.length) lines.push('', `… and ${groups.length - shown.length} more rows (see \`ab compare --format json\`).`);
  }
  const suspicions = suspicionLines(comparison);
  if (suspicions.length > 0) lines.push('', `**Suspicions** (scanners flag, they do not prove):`, '', ...suspicions.slice(0, 25).map((line) => `- ${code(line)}`), ...(suspicions.length > 25 ? [`- … and ${suspicions.length - 25} more`] : []));
  if (comparison.tasksOnlyInA.length + comparison.tasksOnlyInB.length > 0) {
    lines.push('', `Tasks in one run only: A ${comparison.tasksOnlyInA.length}, B ${comparison.tasksOnlyInB.length}.`);
  }
  lines.push('', `<sub>Significance: McNemar's exact test on the discordant pairs, alpha ${comparison.verdict.alpha}; "worse" needs p < alpha and more regressions than fixes.</sub>`);
  return `${lines.join('\n')}\n`;
}
