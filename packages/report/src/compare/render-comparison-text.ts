import { formatTable } from '@agentbench/helpers';
import { FIGURE_LABELS, callText, costUnknownLines, formatFigure, formatFigureDelta, mcnemarLine, pairsLine, passRateLine, suspicionLines, verdictLine } from './comparison-phrases.js';
import { attemptsOfGroup, groupChangedTasks } from './group-changed-tasks.js';
import type { RunComparison } from './run-comparison.js';

function runLine(label: string, run: RunComparison['runA']): string {
  return `${label}: ${run.folder}${run.runId === null ? '' : ` (run ${run.runId}${run.kind === null ? '' : `, ${run.kind}`})`}, ${run.attempts} attempt${run.attempts === 1 ? '' : 's'}`;
}

/** `ab compare` on a terminal: the runs, the verdict, the figures and the changed tasks as tables. */
export function renderComparisonText(comparison: RunComparison): string {
  const lines = [
    runLine('A', comparison.runA),
    runLine('B', comparison.runB),
    '',
    pairsLine(comparison),
    passRateLine(comparison),
    mcnemarLine(comparison),
    verdictLine(comparison),
    '',
    ...formatTable(
      ['figure', 'mean A', 'mean B', 'Δ mean', 'total A', 'total B', 'Δ total', 'pairs'],
      comparison.figures.map((figure) => [
        FIGURE_LABELS[figure.name],
        formatFigure(figure.name, figure.meanA),
        formatFigure(figure.name, figure.meanB),
        formatFigureDelta(figure.name, figure.meanDelta),
        formatFigure(figure.name, figure.totalA),
        formatFigure(figure.name, figure.totalB),
        formatFigureDelta(figure.name, figure.totalDelta),
        String(figure.pairs),
      ]),
    ),
  ];
  for (const line of costUnknownLines(comparison)) lines.push(line);
  if (comparison.divergences.length > 0) {
    const groups = groupChangedTasks(comparison);
    lines.push(
      '',
      'changed tasks:',
      ...formatTable(
        ['task', 'count', 'change', 'A', 'B', 'first divergence', 'attempts'],
        groups.map(({ divergence, pairs }) => {
          const pair = pairs[0];
          return [
            divergence.taskId,
            String(pairs.length),
            divergence.outcome === 'regression' ? 'pass → fail' : 'fail → pass',
            pair?.a.failureReason ?? pair?.a.status ?? '',
            pair?.b.failureReason ?? pair?.b.status ?? '',
            divergence.index === null ? (divergence.note ?? '') : `tool call ${divergence.index + 1}`,
            attemptsOfGroup(pairs),
          ];
        }),
      ),
    );
    for (const { divergence, pairs } of groups) {
      if (divergence.index === null) continue;
      lines.push('', `${divergence.taskId} (${attemptsOfGroup(pairs)}), tool call ${divergence.index + 1}:`, `  A: ${callText(divergence.a)}`, `  B: ${callText(divergence.b)}`);
    }
  }
  const suspicions = suspicionLines(comparison);
  if (suspicions.length > 0) lines.push('', 'suspicions (scanners flag, they do not prove):', ...suspicions.map((line) => `  ${line}`));
  if (comparison.tasksOnlyInA.length + comparison.tasksOnlyInB.length > 0) {
    lines.push('', `tasks only in A: ${comparison.tasksOnlyInA.join(', ') || '–'}; only in B: ${comparison.tasksOnlyInB.join(', ') || '–'}`);
  }
  return `${lines.join('\n')}\n`;
}
