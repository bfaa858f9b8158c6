import type { DiffHunk, HunkLine } from '../unified-diff.js';

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

const FUNCTION_HEADER = /^\s*(?:async\s+)?def\s/;

/**
 * Whether a line of a hunk runs at import time: it is not inside a `def` (a class body does run at
 * import), judged from the new-side lines the hunk shows above it. Walks up to each line with less
 * indentation; a `def` there means no, reaching column 0 otherwise means yes. When the hunk's
 * context ends before deciding, the line is taken not to (a diff shows three lines of context; the
 * rule errs towards silence, and a line at column 0 always decides yes).
 */
export function runsAtImport(hunk: DiffHunk, index: number): boolean {
  const lines: readonly HunkLine[] = hunk.lines;
  const target = lines[index];
  if (target === undefined) return false;
  let indent = indentOf(target.text);
  if (indent === 0) return true;
  for (let cursor = index - 1; cursor >= 0; cursor -= 1) {
    const { kind, text } = lines[cursor] as HunkLine;
    if (kind === 'removed' || text.trim() === '' || text.trimStart().startsWith('#')) continue;
    const lineIndent = indentOf(text);
    if (lineIndent >= indent) continue;
    if (FUNCTION_HEADER.test(text)) return false;
    if (lineIndent === 0) return true;
    indent = lineIndent;
  }
  return false;
}
