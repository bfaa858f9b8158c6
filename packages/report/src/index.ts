// The public surface: reading run folders into the report model, rendering and serving it, the
// model benchmark summary, and comparing two runs (`ab compare`). The views of each row, the
// readers' parts and each comparison renderer are internal (RunFolderError and NoCommonTasksError's
// siblings are ReportErrors: tell them by `name`).
export { ReportError } from './errors/report-error.js';

// The normalised model, read from run folders
export { REPORT_MODEL_VERSION, formatReadProblem, type ReadProblem, type ReportModel, type ReportRow, type ReportSource, type RowStatus } from './model/report-model.js';
export { readRunFolders, type ReadRunFoldersOptions } from './read/read-run-folders.js';
export { summarizeReport, type ReportSummary } from './summary/summarize-report.js';

// Rendering and serving
export { REPORT_FORMATS, generateReport, renderReport, type GenerateReportOptions, type GeneratedReport, type ReportFormat } from './render/generate-report.js';
export { renderHtmlReport } from './render/render-html.js';
export { renderJsonReport } from './render/render-json.js';
export { renderJunitReport } from './render/render-junit.js';
export { renderMarkdownReport } from './render/render-markdown.js';
export { serveReport, type ReportServer, type ServeReportOptions } from './serve/serve-report.js';

// Benchmarks across models
export { summarizeModelBenchmark, type ModelBenchmarkResult } from './bench/summarize-model-benchmark.js';
export { formatBenchTable } from './bench/format-bench-table.js';

// Comparing two runs (`ab compare`)
export { DEFAULT_COMPARE_ALPHA, compareRuns, type CompareRunsOptions } from './compare/compare-runs.js';
export { COMPARISON_FORMATS, generateComparison, renderComparison, type ComparisonFormat, type GenerateComparisonOptions, type GeneratedComparison } from './compare/generate-comparison.js';
export { NoCommonTasksError } from './compare/no-common-tasks-error.js';
export { renderComparisonMarkdown } from './compare/render-comparison-markdown.js';
export { RUN_COMPARISON_VERSION, type RunComparison } from './compare/run-comparison.js';
