// Errors
export { ReportError } from './errors/report-error.js';
export { RunFolderError } from './errors/run-folder-error.js';

// The normalised model
export {
  REPORT_MODEL_VERSION,
  formatReadProblem,
  type ConversationTurnView,
  type DiffView,
  type EvaluationView,
  type FileLink,
  type JudgmentView,
  type LogView,
  type ReadProblem,
  type ReportModel,
  type ReportRow,
  type ReportSource,
  type RowDetail,
  type RowKind,
  type RowStatus,
  type TextPreview,
  type TimelineEntry,
  type TimelineKind,
} from './model/report-model.js';

// Reading artifacts
export { readRunFolders, type ReadRunFoldersOptions } from './read/read-run-folders.js';
export { type PreviewLimits } from './read/preview-limits.js';
export { readJsonLines } from './read/read-jsonl.js';
export { EVALUATIONS_FAILED, RUN_ERRORED } from './read/read-scenario-result.js';
export { ERRORED_FAILURE_REASONS, statusOf } from './read/row-status.js';

// Figures
export { summarizeReport, type ComparisonRow, type GroupSummary, type ReportSummary } from './summary/summarize-report.js';

// Rendering
export { REPORT_FORMATS, generateReport, renderReport, type GenerateReportOptions, type GeneratedReport, type ReportFormat } from './render/generate-report.js';
export { renderHtmlReport, type HtmlReportOptions } from './render/render-html.js';
export { renderJsonReport } from './render/render-json.js';
export { renderJunitReport } from './render/render-junit.js';
export { renderMarkdownReport } from './render/render-markdown.js';

// Serving
export { serveReport, type ReportServer, type ServeReportOptions } from './serve/serve-report.js';

// Benchmarks across models
export {
  summarizeModelBenchmark,
  type ModelBenchmarkEntry,
  type ModelBenchmarkResult,
  type ModelBenchmarkRunInput,
  type ProbeOutcome,
} from './bench/summarize-model-benchmark.js';
export { formatBenchTable } from './bench/format-bench-table.js';

// Comparing two runs (`ab compare`)
export {
  COMPARISON_FORMATS,
  DEFAULT_COMPARE_ALPHA,
  NoCommonTasksError,
  RUN_COMPARISON_VERSION,
  comparePairOfRuns,
  compareRuns,
  generateComparison,
  renderComparison,
  renderComparisonHtml,
  renderComparisonJson,
  renderComparisonMarkdown,
  renderComparisonSection,
  renderComparisonText,
  type AttemptPair,
  type AttemptSide,
  type ComparedRun,
  type CompareRunsOptions,
  type ComparisonFormat,
  type Divergence,
  type FigureDelta,
  type GenerateComparisonOptions,
  type GeneratedComparison,
  type PairOutcome,
  type PairedComparison,
  type RunComparison,
  type ToolCallStep,
  type UnpairedAttempt,
} from './compare/index.js';
