import { formatSuspicion } from '@agentbench/schemas';
import { formatCost, formatNumber, formatPercent, formatSeconds } from '../format/format-figures.js';
import { costUnknownText } from '../summary/cost-unknown.js';
import type { FigureDelta, PairOutcome, RunComparison } from './run-comparison.js';

/** Wording shared by the text, Markdown and HTML renderings of a comparison. */

export const OUTCOME_LABELS: Record<PairOutcome, string> = {
  regression: 'regression (pass → fail)',
  fix: 'fix (fail → pass)',
  'both-passed': 'both passed',
  'both-failed': 'both failed',
  errored: 'errored (left out)',
};

export const FIGURE_LABELS: Record<FigureDelta['name'], string> = {
  tokens: 'tokens (in + out)',
  cost_usd: 'cost',
  duration_sec: 'time',
  steps: 'steps',
};

/** A difference of rates in percentage points, with its sign: `+12.5 pp`. */
export function formatPoints(value: number | null): string {
  if (value === null) return '–';
  const points = value * 100;
  return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points).toFixed(1)} pp`;
}

export function formatFigure(name: FigureDelta['name'], value: number | null): string {
  if (value === null) return '–';
  if (name === 'cost_usd') return formatCost(value);
  if (name === 'duration_sec') return formatSeconds(value);
  return formatNumber(value);
}

/** A signed delta of a figure: `+1,200`, `−$0.02`, `+3.1 s`. */
export function formatFigureDelta(name: FigureDelta['name'], value: number | null): string {
  if (value === null) return '–';
  if (value === 0) return '±0';
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  return `${sign}${formatFigure(name, Math.abs(value))}`;
}

export function formatPValue(value: number): string {
  return value >= 0.001 ? String(Number(value.toFixed(3))) : value.toExponential(1);
}

export function passRateLine(comparison: RunComparison): string {
  const difference = comparison.passRateDifference;
  const interval =
    difference === null
      ? 'no pair to compare'
      : `${Math.round(difference.level * 100)}% CI [${formatPoints(difference.lower)}, ${formatPoints(difference.upper)}] (paired bootstrap, ${difference.resamples} resamples, seed ${difference.seed})`;
  return `pass rate A ${formatPercent(comparison.runA.passRate)}, B ${formatPercent(comparison.runB.passRate)}: B − A ${formatPoints(difference?.estimate ?? null)}, ${interval}`;
}

export function mcnemarLine(comparison: RunComparison): string {
  const { b, c, pValue } = comparison.mcnemar;
  return `McNemar exact p = ${formatPValue(pValue)} (${b} regression${b === 1 ? '' : 's'}, ${c} fix${c === 1 ? '' : 'es'})`;
}

export function verdictLine(comparison: RunComparison): string {
  const { alpha, isSignificantlyWorse, isSignificantlyBetter } = comparison.verdict;
  if (isSignificantlyWorse) return `B is significantly worse than A (p < ${alpha})`;
  if (isSignificantlyBetter) return `B is significantly better than A (p < ${alpha})`;
  return `no significant difference at alpha ${alpha}`;
}

export function pairsLine(comparison: RunComparison): string {
  const counts = comparison.counts;
  const extras = [
    counts.errored > 0 ? `${counts.errored} errored pair${counts.errored === 1 ? '' : 's'} left out` : '',
    counts.unpairedA + counts.unpairedB > 0 ? `unpaired: ${counts.unpairedA} in A, ${counts.unpairedB} in B` : '',
  ].filter((part) => part !== '');
  return `${counts.pairs} pair${counts.pairs === 1 ? '' : 's'}: ${counts.regressions} regression${counts.regressions === 1 ? '' : 's'}, ${counts.fixes} fix${counts.fixes === 1 ? '' : 'es'}, ${counts.bothPassed} both passed, ${counts.bothFailed} both failed${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
}

/** `read_file {"path":"a.py"}`, cut for one line. */
export function callText(call: { tool: string; arguments: string } | null, maxCharacters = 120): string {
  if (call === null) return '(no more tool calls)';
  const text = `${call.tool} ${call.arguments}`.replace(/\s+/g, ' ');
  return text.length > maxCharacters ? `${text.slice(0, maxCharacters - 1)}…` : text;
}

/** `A: cost unknown: no price for model X`, one line per run with such models (none when every cost is known). */
export function costUnknownLines(comparison: RunComparison): string[] {
  const { a, b } = comparison.costUnknownModels;
  return [
    ...(a.length === 0 ? [] : [`A: ${costUnknownText(a)}`]),
    ...(b.length === 0 ? [] : [`B: ${costUnknownText(b)}`]),
  ];
}

/**
 * One line per suspicion of a paired attempt, side by side (`toy #1 B: rule at file:line: …`), so
 * a comparison shows when B passes where A failed with a scanner's flag on B.
 */
export function suspicionLines(comparison: RunComparison): string[] {
  return comparison.pairs.flatMap((pair) =>
    (['a', 'b'] as const).flatMap((side) =>
      (pair[side].suspicions ?? []).map((suspicion) => `${pair.taskId} #${pair.repeat + 1} ${side.toUpperCase()} (${pair[side].failureReason ?? pair[side].status}): ${formatSuspicion(suspicion)}`),
    ),
  );
}
