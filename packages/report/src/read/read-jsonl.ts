import { readFile } from 'node:fs/promises';
import type { ReadProblem } from '../model/report-model.js';

export interface JsonLine {
  value: unknown;
  /** 1-based. */
  line: number;
}

/** Problems reported per file before the rest are summed up in one line. */
export const MAX_PROBLEMS_PER_FILE = 20;

/**
 * Reads a JSON Lines file line by line. A line that is not JSON is reported with its line number
 * and skipped; a last line without its newline that does not parse is a torn write and is
 * reported as such. A missing file gives no lines and no problem (it is optional).
 */
export async function readJsonLines(file: string, problems: ReadProblem[]): Promise<JsonLine[] | undefined> {
  const text = await readOptionalFile(file, problems);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  const values: JsonLine[] = [];
  const reporter = problemReporter(file, problems);
  lines.forEach((content, index) => {
    if (content.trim() === '') return;
    try {
      values.push({ value: JSON.parse(content), line: index + 1 });
    } catch (error) {
      const isLast = index === lines.length - 1;
      reporter.add(index + 1, isLast ? 'incomplete last line (a write was cut off); skipped' : `not valid JSON (${error instanceof Error ? error.message : String(error)}); skipped`);
    }
  });
  reporter.finish();
  return values;
}

/** Reports up to MAX_PROBLEMS_PER_FILE problems of one file, then one line counting the rest. */
export function problemReporter(file: string, problems: ReadProblem[]): { add(line: number | undefined, message: string): void; finish(): void } {
  let count = 0;
  return {
    add(line, message) {
      count += 1;
      if (count <= MAX_PROBLEMS_PER_FILE) problems.push(line === undefined ? { file, message } : { file, line, message });
    },
    finish() {
      if (count > MAX_PROBLEMS_PER_FILE) problems.push({ file, message: `${count - MAX_PROBLEMS_PER_FILE} more problems in this file not listed` });
    },
  };
}

/** Reads and parses a JSON file; a missing file is undefined without a problem, a bad one is reported. */
export async function readJsonFile(file: string, problems: ReadProblem[]): Promise<unknown> {
  const text = await readOptionalFile(file, problems);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    problems.push({ file, message: `not valid JSON (${error instanceof Error ? error.message : String(error)}); skipped` });
    return undefined;
  }
}

/** A file's text; undefined for a missing file (optional, no problem) or an unreadable one (reported). */
async function readOptionalFile(file: string, problems: ReadProblem[]): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') problems.push({ file, message: `cannot read (${code ?? String(error)})` });
    return undefined;
  }
}
