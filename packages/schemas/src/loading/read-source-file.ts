import { inputFileIssue, readInputFile } from './read-input-file.js';
import type { ValidationIssue } from '../errors/validation-issue.js';
import { parseYamlSource, type YamlSource } from './yaml-source.js';

export type ReadSourceResult = { source: YamlSource; issues: [] } | { source: undefined; issues: ValidationIssue[] };

export interface ReadYamlFileOptions {
  /** What the file should hold, for the message of an empty file (default "a mapping"). */
  expected?: string;
}

/**
 * Reads (with `readInputFile`'s bounds) and parses a YAML file; a missing, special, oversized or non-text
 * file, YAML syntax errors, the parser's limits and an empty file come back as issues.
 */
export async function readYamlFile(file: string, options: ReadYamlFileOptions = {}): Promise<ReadSourceResult> {
  const read = await readInputFile(file);
  if (read.problem !== undefined) return { source: undefined, issues: [inputFileIssue(file, read.problem)] };
  const source = parseYamlSource(read.text, file);
  if (source.syntaxIssues.length > 0) return { source: undefined, issues: source.syntaxIssues };
  if (source.isEmpty) {
    const message = `the file is empty (no YAML content); expected ${options.expected ?? 'a mapping'}`;
    return { source: undefined, issues: [{ file, line: 1, column: 1, path: '', message, severity: 'error' }] };
  }
  return { source, issues: [] };
}
