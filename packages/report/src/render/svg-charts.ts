import type { GroupSummary } from '../summary/summarize-report.js';
import { escapeXml } from '../format/escape-xml.js';

/** The narrowest label column; it grows with the longest label (run folder names are long). */
const MIN_LABEL_WIDTH = 210;
const LABEL_GAP = 8;
/** Characters of a label shown whole; a longer one keeps its head and tail (run folders differ at both ends). */
const MAX_LABEL_CHARACTERS = 48;

function truncateLabel(label: string): string {
  if (label.length <= MAX_LABEL_CHARACTERS) return label;
  const head = Math.ceil((MAX_LABEL_CHARACTERS - 1) / 2);
  return `${label.slice(0, head)}…${label.slice(label.length - (MAX_LABEL_CHARACTERS - 1 - head))}`;
}

/** Roughly the widest a character of the 12 px chart font draws (digits, `%`, parentheses are narrower). */
const VALUE_CHARACTER_WIDTH = 7.5;
const VALUE_GAP = 6;

/** Room a value label needs right of its bar, with a margin: the label must never be cut by the viewBox. */
export function valueLabelWidth(text: string): number {
  return Math.ceil(text.length * VALUE_CHARACTER_WIDTH) + 8;
}

/** Bars of the pass-rate and failure charts. */
const PASS_PLOT_WIDTH = 360;
const FAILURE_PLOT_WIDTH = 380;
const BAR_HEIGHT = 18;
const ROW_HEIGHT = 28;

/**
 * The label column: wide enough for the longest (shortened) label at the widest character, so a
 * right-aligned label never starts left of the chart (it used to be cut off there).
 */
export function labelColumnWidth(labels: readonly string[]): number {
  const longest = Math.max(0, ...labels.map((label) => truncateLabel(label).length));
  return Math.max(MIN_LABEL_WIDTH, valueLabelWidth('x'.repeat(longest)) + LABEL_GAP);
}

/** Horizontal bars of pass rate per group, with the 95% Wilson interval as a whisker. */
export function passRateChart(groups: readonly GroupSummary[], title: string): string {
  const labelWidth = labelColumnWidth(groups.map((group) => group.label));
  const plotWidth = PASS_PLOT_WIDTH;
  const height = 34 + groups.length * ROW_HEIGHT + 20;
  const valueOf = (group: GroupSummary): string =>
    group.passRate.rate === null ? '–' : `${(group.passRate.rate * 100).toFixed(0)}% (${group.passed}/${group.attempts})`;
  // The chart grows to the right so the longest value ("100% (1000/1000)") fits whole.
  const width = labelWidth + plotWidth + VALUE_GAP + Math.max(64, ...groups.map((group) => valueLabelWidth(valueOf(group))));
  const rows = groups.map((group, index) => {
    const y = 34 + index * ROW_HEIGHT;
    const rate = group.passRate.rate ?? 0;
    const lower = labelWidth + group.passRate.interval.lower * plotWidth;
    const upper = labelWidth + group.passRate.interval.upper * plotWidth;
    const middle = y + BAR_HEIGHT / 2;
    const percent = valueOf(group);
    return [
      `<text x="${labelWidth - LABEL_GAP}" y="${middle + 4}" text-anchor="end" class="chart-label"><title>${escapeXml(group.label)}</title>${escapeXml(truncateLabel(group.label))}</text>`,
      `<rect x="${labelWidth}" y="${y}" width="${plotWidth}" height="${BAR_HEIGHT}" class="chart-track"/>`,
      `<rect x="${labelWidth}" y="${y}" width="${(rate * plotWidth).toFixed(1)}" height="${BAR_HEIGHT}" class="chart-bar-pass" data-rate="${rate}"/>`,
      `<line x1="${lower.toFixed(1)}" x2="${upper.toFixed(1)}" y1="${middle}" y2="${middle}" class="chart-whisker"/>`,
      `<line x1="${lower.toFixed(1)}" x2="${lower.toFixed(1)}" y1="${middle - 5}" y2="${middle + 5}" class="chart-whisker"/>`,
      `<line x1="${upper.toFixed(1)}" x2="${upper.toFixed(1)}" y1="${middle - 5}" y2="${middle + 5}" class="chart-whisker"/>`,
      `<text x="${labelWidth + plotWidth + VALUE_GAP}" y="${middle + 4}" class="chart-value">${escapeXml(percent)}</text>`,
    ].join('');
  });
  return `<svg class="chart" role="img" aria-label="${escapeXml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><text x="0" y="16" class="chart-title">${escapeXml(title)}</text>${rows.join('')}<text x="${labelWidth}" y="${height - 4}" class="chart-note">bars: pass rate; whiskers: 95% Wilson interval</text></svg>`;
}

/** Horizontal bars of failures per reason. */
export function failureChart(counts: ReadonlyArray<[string, number]>, title: string): string {
  const labelWidth = labelColumnWidth(counts.map(([reason]) => reason));
  const plotWidth = FAILURE_PLOT_WIDTH;
  const largest = Math.max(1, ...counts.map(([, count]) => count));
  const height = 34 + Math.max(1, counts.length) * ROW_HEIGHT;
  const width = labelWidth + plotWidth + VALUE_GAP + Math.max(44, valueLabelWidth(String(largest)));
  const rows = counts.map(([reason, count], index) => {
    const y = 34 + index * ROW_HEIGHT;
    const middle = y + BAR_HEIGHT / 2;
    return [
      `<text x="${labelWidth - LABEL_GAP}" y="${middle + 4}" text-anchor="end" class="chart-label"><title>${escapeXml(reason)}</title>${escapeXml(truncateLabel(reason))}</text>`,
      `<rect x="${labelWidth}" y="${y}" width="${((count / largest) * plotWidth).toFixed(1)}" height="${BAR_HEIGHT}" class="chart-bar-fail" data-reason="${escapeXml(reason)}" data-count="${count}"/>`,
      `<text x="${labelWidth + (count / largest) * plotWidth + VALUE_GAP}" y="${middle + 4}" class="chart-value">${count}</text>`,
    ].join('');
  });
  const empty = counts.length === 0 ? `<text x="${labelWidth}" y="50" class="chart-note">no failures</text>` : '';
  return `<svg class="chart" role="img" aria-label="${escapeXml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><text x="0" y="16" class="chart-title">${escapeXml(title)}</text>${rows.join('')}${empty}</svg>`;
}
