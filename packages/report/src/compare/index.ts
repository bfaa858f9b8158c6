export { DEFAULT_COMPARE_ALPHA, compareRuns, type CompareRunsOptions } from './compare-runs.js';
export { COMPARISON_FORMATS, generateComparison, renderComparison, type ComparisonFormat, type GenerateComparisonOptions, type GeneratedComparison } from './generate-comparison.js';
export { NoCommonTasksError } from './no-common-tasks-error.js';
export { renderComparisonText } from './render-comparison-text.js';
export { renderComparisonMarkdown } from './render-comparison-markdown.js';
export { renderComparisonJson } from './render-comparison-json.js';
export { COMPARISON_STYLES, renderComparisonHtml, renderComparisonSection } from './render-comparison-html.js';
export { comparePairOfRuns, type PairedComparison } from './paired-comparison.js';
export {
  RUN_COMPARISON_VERSION,
  type AttemptPair,
  type AttemptSide,
  type ComparedRun,
  type Divergence,
  type FigureDelta,
  type PairOutcome,
  type RunComparison,
  type ToolCallStep,
  type UnpairedAttempt,
} from './run-comparison.js';
