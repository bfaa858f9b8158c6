import type { ReportModel, ReportSource } from '../model/report-model.js';

/**
 * How a report names its outcomes. In a baseline validation run (`ab validate-suite`, run.json
 * kind `suite_baseline`) a "passed" record is a valid baseline (the tests fail before any fix,
 * as the task says) and a "failed" one an invalid baseline; calling that a pass rate misleads.
 */
export interface ResultWording {
  isBaseline: boolean;
  /** A passed row: `passed` or `valid baseline`. */
  passed: string;
  /** A failed row: `failed` or `invalid baseline`. */
  failed: string;
  /** Title of the per-model chart. */
  rateChartTitle: string;
  /** Headline of the passed count: `3/10 passed` or `valid baselines: 3 of 10`. */
  headline: (passed: number, total: number) => string;
}

export function isBaselineSource(source: ReportSource): boolean {
  return source.run?.kind === 'suite_baseline';
}

const ATTEMPT_WORDING: ResultWording = {
  isBaseline: false,
  passed: 'passed',
  failed: 'failed',
  rateChartTitle: 'Pass rate per model',
  headline: (passed, total) => `${passed}/${total} passed`,
};

const BASELINE_WORDING: ResultWording = {
  isBaseline: true,
  passed: 'valid baseline',
  failed: 'invalid baseline',
  rateChartTitle: 'Valid baselines per model',
  headline: (passed, total) => `valid baselines: ${passed} of ${total}`,
};

/** Baseline wording when every run folder of the report is a baseline validation run. */
export function resultWording(model: ReportModel): ResultWording {
  return model.sources.length > 0 && model.sources.every(isBaselineSource) ? BASELINE_WORDING : ATTEMPT_WORDING;
}
