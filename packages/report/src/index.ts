// Errors
export { ReportError } from './errors/report-error.js';
export { RunFolderError } from './errors/run-folder-error.js';

// The normalised model
export {
  REPORT_MODEL_VERSION,
  emptyDetail,
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
export { findArtifactFiles, type ArtifactFiles } from './read/find-artifact-files.js';
export { DEFAULT_PREVIEW_LIMITS, scaledPreviewLimits, type PreviewLimits } from './read/preview-limits.js';
export { previewFile, previewText } from './read/text-preview.js';
export { readJsonLines, readJsonFile, MAX_PROBLEMS_PER_FILE, type JsonLine } from './read/read-jsonl.js';
export { answerText, readLlmTranscript, type LlmTranscript } from './read/llm-messages.js';
export { EVALUATIONS_FAILED, RUN_ERRORED, isScenarioResult, readScenarioResult } from './read/read-scenario-result.js';
export { ERRORED_FAILURE_REASONS, statusOf } from './read/row-status.js';

// Figures
export { modelLabelOf, summarizeGroup, summarizeReport, type ComparisonRow, type GroupSummary, type ReportSummary } from './summary/summarize-report.js';

// Rendering
export { REPORT_FORMATS, generateReport, renderReport, type GenerateReportOptions, type GeneratedReport, type ReportFormat } from './render/generate-report.js';
export { embedJson, relativeLink, renderHtmlReport, type HtmlReportOptions } from './render/render-html.js';
export { renderJsonReport } from './render/render-json.js';
export { escapeXml, renderJunitReport } from './render/render-junit.js';
export { renderMarkdownReport } from './render/render-markdown.js';
export { formatCost, formatNumber, formatPercent, formatSeconds } from './render/format-figures.js';

// Serving
export { resolveServedPath, serveReport, type ReportServer, type ServeReportOptions } from './serve/serve-report.js';

// Benchmarks across models
export { BenchInputError } from './errors/bench-input-error.js';
export {
  summarizeModelBenchmark,
  type ModelBenchmarkEntry,
  type ModelBenchmarkResult,
  type ModelBenchmarkRunInput,
  type ProbeOutcome,
} from './bench/summarize-model-benchmark.js';
export { formatBenchTable } from './bench/format-bench-table.js';
