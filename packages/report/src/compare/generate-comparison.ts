import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ReportError } from '../errors/report-error.js';
import { compareRuns, type CompareRunsOptions } from './compare-runs.js';
import { renderComparisonHtml } from './render-comparison-html.js';
import { renderComparisonJson } from './render-comparison-json.js';
import { renderComparisonMarkdown } from './render-comparison-markdown.js';
import { renderComparisonText } from './render-comparison-text.js';
import type { RunComparison } from './run-comparison.js';

export const COMPARISON_FORMATS = ['text', 'md', 'json', 'html'] as const;
export type ComparisonFormat = (typeof COMPARISON_FORMATS)[number];

export interface GenerateComparisonOptions extends CompareRunsOptions {
  folderA: string;
  folderB: string;
  format: ComparisonFormat;
  /** Written atomically when given. */
  outFile?: string;
}

export interface GeneratedComparison {
  comparison: RunComparison;
  text: string;
  outFile?: string;
}

export function renderComparison(comparison: RunComparison, format: ComparisonFormat): string {
  switch (format) {
    case 'text':
      return renderComparisonText(comparison);
    case 'md':
      return renderComparisonMarkdown(comparison);
    case 'json':
      return renderComparisonJson(comparison);
    case 'html':
      return renderComparisonHtml(comparison);
    default:
      throw new ReportError(`unknown comparison format "${String(format)}"; expected one of ${COMPARISON_FORMATS.join(', ')}`);
  }
}

/** `ab compare`: compares the two runs and renders the comparison, written to `outFile` when given. */
export async function generateComparison(options: GenerateComparisonOptions): Promise<GeneratedComparison> {
  const { folderA, folderB, format, outFile, ...compareOptions } = options;
  const comparison = await compareRuns(folderA, folderB, compareOptions);
  const text = renderComparison(comparison, format);
  if (outFile === undefined) return { comparison, text };
  const target = path.resolve(outFile);
  await mkdir(path.dirname(target), { recursive: true });
  // Written beside and renamed: a reader (a browser, a CI step) never sees half a file.
  const temporary = `${target}.tmp-${process.pid}`;
  await writeFile(temporary, text);
  await rename(temporary, target);
  return { comparison, text, outFile: target };
}
