import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { comparePairOfRuns } from '../compare/paired-comparison.js';
import { ReportError } from '../errors/report-error.js';
import type { ReportModel } from '../model/report-model.js';
import { readRunFolders, type ReadRunFoldersOptions } from '../read/read-run-folders.js';
import { renderHtmlReport, type HtmlReportOptions } from './render-html.js';
import { renderJsonReport } from './render-json.js';
import { renderJunitReport } from './render-junit.js';
import { renderMarkdownReport } from './render-markdown.js';

export const REPORT_FORMATS = ['html', 'json', 'junit', 'md'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface GenerateReportOptions extends ReadRunFoldersOptions {
  runDirs: readonly string[];
  format: ReportFormat;
  /** Write the report here (atomically); HTML links are then relative to its folder. */
  outFile?: string;
  title?: string;
}

export interface GeneratedReport {
  text: string;
  model: ReportModel;
  /** Absolute path written, when `outFile` was given. */
  outFile?: string;
}

/** Renders a read model in one format; HTML links are relative to `baseDir`. */
export function renderReport(model: ReportModel, format: ReportFormat, options: HtmlReportOptions = {}): string {
  switch (format) {
    case 'html':
      return renderHtmlReport(model, options);
    case 'json':
      return renderJsonReport(model);
    case 'junit':
      return renderJunitReport(model);
    case 'md':
      return renderMarkdownReport(model, options.pairedComparison === undefined ? {} : { pairedComparison: options.pairedComparison });
    default:
      throw new ReportError(`unknown report format "${String(format)}"; expected one of ${REPORT_FORMATS.join(', ')}`);
  }
}

/** Formats that show B against A when given two run folders (the others are for machines and CI, and `ab compare --format json` has it). */
const FORMATS_WITH_PAIRED_COMPARISON: readonly ReportFormat[] = ['html', 'md'];

/**
 * Reads the run folders and renders one report, written to `outFile` when given. With exactly two
 * folders, the HTML and Markdown reports also compare the second (B) with the first (A), as `ab compare A B`.
 */
export async function generateReport(options: GenerateReportOptions): Promise<GeneratedReport> {
  const model = await readRunFolders(options.runDirs, options);
  const outFile = options.outFile === undefined ? undefined : path.resolve(options.outFile);
  const renderOptions: HtmlReportOptions = {};
  const pairedComparison = FORMATS_WITH_PAIRED_COMPARISON.includes(options.format) ? await comparePairOfRuns(options.runDirs) : undefined;
  if (pairedComparison !== undefined) renderOptions.pairedComparison = pairedComparison;
  if (outFile !== undefined) renderOptions.baseDir = path.dirname(outFile);
  if (options.title !== undefined) renderOptions.title = options.title;
  const text = renderReport(model, options.format, renderOptions);
  if (outFile === undefined) return { text, model };
  await mkdir(path.dirname(outFile), { recursive: true });
  // Written beside and renamed: a reader (a browser, CI) never sees half a report.
  const temporary = `${outFile}.tmp-${process.pid}`;
  await writeFile(temporary, text);
  await rename(temporary, outFile);
  return { text, model, outFile };
}
