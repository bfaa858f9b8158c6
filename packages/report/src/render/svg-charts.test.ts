import { describe, expect, it } from 'vitest';
import { emptyDetail, type ReportRow } from '../model/report-model.js';
import { summarizeGroup } from '../summary/summarize-report.js';
import { failureChart, passRateChart, valueLabelWidth } from './svg-charts.js';

function row(index: number, passed: boolean): ReportRow {
  return {
    id: `row-${index}`, sourceId: 'source-1', kind: 'attempt', taskId: `task_${index}`, suite: null, model: 'model-a', variant: null,
    status: passed ? 'passed' : 'failed', passed, failureReason: passed ? null : 'TESTS_FAILED', stopReason: null, durationSec: 1, steps: null,
    inputTokens: null, outputTokens: null, costUsd: null, startedAt: null, combination: null, folder: null, detail: emptyDetail(),
  };
}

function viewBoxWidth(svg: string): number {
  return Number(/viewBox="0 0 ([\d.]+) /.exec(svg)?.[1]);
}

function valueLabels(svg: string): Array<{ x: number; text: string }> {
  return [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" class="chart-value">([^<]*)<\/text>/g)].map((match) => ({ x: Number(match[1]), text: match[2] ?? '' }));
}

describe('passRateChart', () => {
  it.each([
    ['30% (3/10)', 10, 3],
    ['100% (1000/1000)', 1000, 1000],
  ])('writes the value label "%s" whole, with room for it inside the viewBox', (label, total, passed) => {
    const rows = Array.from({ length: total }, (_, index) => row(index, index < passed));
    const svg = passRateChart([summarizeGroup('model-a', 'model-a', rows)], 'Pass rate per model');
    const [value] = valueLabels(svg);
    expect(value?.text).toBe(label);
    expect(value!.x + valueLabelWidth(label)).toBeLessThanOrEqual(viewBoxWidth(svg));
    expect(svg).toContain(`width="${viewBoxWidth(svg)}"`);
  });
});

describe('failureChart', () => {
  it('leaves room for the largest count right of the longest bar', () => {
    const svg = failureChart([['TESTS_FAILED', 123456], ['TIMEOUT', 2]], 'Failures by reason');
    const [largest] = valueLabels(svg);
    expect(largest?.text).toBe('123456');
    expect(largest!.x + valueLabelWidth('123456')).toBeLessThanOrEqual(viewBoxWidth(svg));
  });
});
