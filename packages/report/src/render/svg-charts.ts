import type { GroupSummary } from '../summary/summarize-report.js';
import { escapeXml } from './render-junit.js';

const WIDTH = 640;
const LABEL_WIDTH = 210;
const BAR_HEIGHT = 18;
const ROW_HEIGHT = 28;

/** Roughly the widest a character of the 12 px chart font draws (digits, `%`, parentheses are narrower). */
const VALUE_CHARACTER_WIDTH = 7.5;
const VALUE_GAP = 6;

/** Room a value label needs right of its bar, with a margin: the label must never be cut by the viewBox. */
export function valueLabelWidth(text: string): number {
  return Math.ceil(text.length * VALUE_CHARACTER_WIDTH) + 8;
}

function truncateLabel(label: string, length = 30): string {
  return label.length > length ? `${label.slice(0, length - 1)}…` : label;
}

/** Horizontal bars of pass rate per group, with the 95% Wilson interval as a whisker. */
export function passRateChart(groups: readonly GroupSummary[], title: string): string {
  const plotWidth = WIDTH - LABEL_WIDTH - 70;
  const height = 34 + groups.length * ROW_HEIGHT + 20;
  const valueOf = (group: GroupSummary): string =>
    group.passRate.rate === null ? '–' : `${(group.passRate.rate * 100).toFixed(0)}% (${group.passed}/${group.attempts})`;
  // The chart grows to the right so the longest value ("100% (1000/1000)") fits whole.
  const width = Math.max(WIDTH, LABEL_WIDTH + plotWidth + VALUE_GAP + Math.max(0, ...groups.map((group) => valueLabelWidth(valueOf(group)))));
  const rows = groups.map((group, index) => {
    const y = 34 + index * ROW_HEIGHT;
    const rate = group.passRate.rate ?? 0;
    const lower = LABEL_WIDTH + group.passRate.interval.lower * plotWidth;
    const upper = LABEL_WIDTH + group.passRate.interval.upper * plotWidth;
    const middle = y + BAR_HEIGHT / 2;
    const percent = valueOf(group);
    return [
      `<text x="${LABEL_WIDTH - 8}" y="${middle + 4}" text-anchor="end" class="chart-label"><title>${escapeXml(group.label)}</title>${escapeXml(truncateLabel(group.label))}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${plotWidth}" height="${BAR_HEIGHT}" class="chart-track"/>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${(rate * plotWidth).toFixed(1)}" height="${BAR_HEIGHT}" class="chart-bar-pass" data-rate="${rate}"/>`,
      `<line x1="${lower.toFixed(1)}" x2="${upper.toFixed(1)}" y1="${middle}" y2="${middle}" class="chart-whisker"/>`,
      `<line x1="${lower.toFixed(1)}" x2="${lower.toFixed(1)}" y1="${middle - 5}" y2="${middle + 5}" class="chart-whisker"/>`,
      `<line x1="${upper.toFixed(1)}" x2="${upper.toFixed(1)}" y1="${middle - 5}" y2="${middle + 5}" class="chart-whisker"/>`,
      `<text x="${LABEL_WIDTH + plotWidth + VALUE_GAP}" y="${middle + 4}" class="chart-value">${escapeXml(percent)}</text>`,
    ].join('');
  });
  return `<svg class="chart" role="img" aria-label="${escapeXml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><text x="0" y="16" class="chart-title">${escapeXml(title)}</text>${rows.join('')}<text x="${LABEL_WIDTH}" y="${height - 4}" class="chart-note">bars: pass rate; whiskers: 95% Wilson interval</text></svg>`;
}

/** Horizontal bars of failures per reason. */
export function failureChart(counts: ReadonlyArray<[string, number]>, title: string): string {
  const plotWidth = WIDTH - LABEL_WIDTH - 50;
  const largest = Math.max(1, ...counts.map(([, count]) => count));
  const height = 34 + Math.max(1, counts.length) * ROW_HEIGHT;
  const width = Math.max(WIDTH, LABEL_WIDTH + plotWidth + VALUE_GAP + valueLabelWidth(String(largest)));
  const rows = counts.map(([reason, count], index) => {
    const y = 34 + index * ROW_HEIGHT;
    const middle = y + BAR_HEIGHT / 2;
    return [
      `<text x="${LABEL_WIDTH - 8}" y="${middle + 4}" text-anchor="end" class="chart-label">${escapeXml(truncateLabel(reason))}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${((count / largest) * plotWidth).toFixed(1)}" height="${BAR_HEIGHT}" class="chart-bar-fail" data-reason="${escapeXml(reason)}" data-count="${count}"/>`,
      `<text x="${LABEL_WIDTH + (count / largest) * plotWidth + VALUE_GAP}" y="${middle + 4}" class="chart-value">${count}</text>`,
    ].join('');
  });
  const empty = counts.length === 0 ? `<text x="${LABEL_WIDTH}" y="50" class="chart-note">no failures</text>` : '';
  return `<svg class="chart" role="img" aria-label="${escapeXml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><text x="0" y="16" class="chart-title">${escapeXml(title)}</text>${rows.join('')}${empty}</svg>`;
}
