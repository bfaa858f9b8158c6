/**
 * A git diff read as data. The text is the agent's (every byte of it a sandbox could choose), so it
 * is only split and matched: bounded in bytes, files and line length, hunks read by their counts (an
 * added line reading "+++ b/x" stays an added line), never applied or run.
 */

/**
 * One line of a hunk, in the diff's order. `line` is its number in the changed file; a removed
 * line has the number of the line that now stands where it was.
 */
export interface HunkLine {
  kind: 'context' | 'added' | 'removed';
  line: number;
  text: string;
}

export interface DiffHunk {
  lines: HunkLine[];
}

export interface DiffFile {
  /** Path in the repository after the change (before it, for a deleted file), `/`-separated. */
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** A binary change: no lines to read. */
  isBinary: boolean;
  hunks: DiffHunk[];
}

export interface ParsedDiff {
  files: DiffFile[];
  /** The diff went past a limit: what follows the limit was not read. */
  isTruncated: boolean;
}

export interface DiffLimits {
  /** Characters of the diff read. Default 16 Mi. */
  maxCharacters?: number;
  /** Files read. Default 10,000. */
  maxFiles?: number;
  /** Characters kept of one line of a hunk (the rest is cut before matching). Default 4,000. */
  maxLineCharacters?: number;
}

export const DEFAULT_DIFF_LIMITS: Required<DiffLimits> = { maxCharacters: 16 * 1024 * 1024, maxFiles: 10_000, maxLineCharacters: 4000 };

const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface OpenHunk {
  hunk: DiffHunk;
  oldLeft: number;
  newLeft: number;
  nextLine: number;
}

/** The files of a `git diff`/`git diff-tree -p` text, with the lines each hunk adds, keeps and removes. */
export function parseUnifiedDiff(patch: string, limits: DiffLimits = {}): ParsedDiff {
  const { maxCharacters, maxFiles, maxLineCharacters } = { ...DEFAULT_DIFF_LIMITS, ...limits };
  let isTruncated = patch.length > maxCharacters;
  const text = isTruncated ? patch.slice(0, maxCharacters) : patch;
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let open: OpenHunk | undefined;
  for (const raw of text.split('\n')) {
    if (open !== undefined && file !== undefined) {
      if (readHunkLine(open, raw, maxLineCharacters)) {
        if (open.oldLeft <= 0 && open.newLeft <= 0) open = undefined;
        continue;
      }
      open = undefined;
    }
    if (raw.startsWith('diff --git ')) {
      if (files.length >= maxFiles) {
        isTruncated = true;
        break;
      }
      file = { path: headerPath(raw.slice('diff --git '.length)), status: 'modified', isBinary: false, hunks: [] };
      files.push(file);
      continue;
    }
    if (file === undefined) continue;
    if (raw.startsWith('new file mode')) file.status = 'added';
    else if (raw.startsWith('deleted file mode')) file.status = 'deleted';
    else if (raw.startsWith('+++ ') && !raw.startsWith('+++ /dev/null')) file.path = sidePath(raw.slice(4), 'b/');
    else if (raw.startsWith('--- ') && file.status === 'deleted' && !raw.startsWith('--- /dev/null')) file.path = sidePath(raw.slice(4), 'a/');
    else if (raw === 'GIT binary patch' || raw.startsWith('Binary files ')) file.isBinary = true;
    else {
      const header = HUNK_HEADER.exec(raw);
      if (header === null) continue;
      const hunk: DiffHunk = { lines: [] };
      file.hunks.push(hunk);
      const newStart = Number(header[2]);
      open = { hunk, oldLeft: header[1] === undefined ? 1 : Number(header[1]), newLeft: header[3] === undefined ? 1 : Number(header[3]), nextLine: Math.max(1, newStart) };
      if (open.oldLeft <= 0 && open.newLeft <= 0) open = undefined;
    }
  }
  return { files, isTruncated };
}

/** Reads one line inside a hunk; false when the line is not a hunk line (the hunk ended early). */
function readHunkLine(open: OpenHunk, raw: string, maxLineCharacters: number): boolean {
  const marker = raw[0];
  const text = raw.length > maxLineCharacters + 1 ? raw.slice(1, maxLineCharacters + 1) : raw.slice(1);
  if (marker === '+' && open.newLeft > 0) {
    open.hunk.lines.push({ kind: 'added', line: open.nextLine, text });
    open.nextLine += 1;
    open.newLeft -= 1;
    return true;
  }
  if (marker === '-' && open.oldLeft > 0) {
    open.hunk.lines.push({ kind: 'removed', line: open.nextLine, text });
    open.oldLeft -= 1;
    return true;
  }
  // A blank context line may reach us without its leading space (an editor stripped it).
  if ((marker === ' ' || raw === '') && open.oldLeft > 0 && open.newLeft > 0) {
    open.hunk.lines.push({ kind: 'context', line: open.nextLine, text });
    open.nextLine += 1;
    open.oldLeft -= 1;
    open.newLeft -= 1;
    return true;
  }
  return marker === '\\';
}

/** `a/P b/P` (git writes the same path twice without renames), or the quoted form. */
function headerPath(rest: string): string {
  if (rest.startsWith('"')) {
    const end = quotedEnd(rest);
    return stripPrefix(unquote(rest.slice(0, end)), 'a/');
  }
  const half = (rest.length - 1) / 2;
  return stripPrefix(Number.isInteger(half) ? rest.slice(0, half) : rest.split(' ')[0] ?? rest, 'a/');
}

function sidePath(value: string, prefix: string): string {
  // git ends a path with a tab when it holds a space ("+++ b/a b\t").
  const trimmed = value.endsWith('\t') ? value.slice(0, -1) : value;
  return stripPrefix(trimmed.startsWith('"') ? unquote(trimmed) : trimmed, prefix);
}

function stripPrefix(value: string, prefix: string): string {
  return value.startsWith(prefix) ? value.slice(prefix.length) : value;
}

function quotedEnd(value: string): number {
  for (let index = 1; index < value.length; index += 1) {
    if (value[index] === '\\') index += 1;
    else if (value[index] === '"') return index + 1;
  }
  return value.length;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** git's C-style quoting (`"b/caf\303\251.py"`): escapes and octal bytes, read as UTF-8. */
function unquote(quoted: string): string {
  const body = quoted.slice(1, quoted.endsWith('"') ? -1 : undefined);
  const bytes: number[] = [];
  for (let index = 0; index < body.length; index += 1) {
    const character = body[index] as string;
    if (character !== '\\') {
      bytes.push(...Buffer.from(character, 'utf8'));
      continue;
    }
    const next = body[index + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(index + 1, index + 4));
    if (octal !== null) {
      bytes.push(Number.parseInt(octal[0], 8));
      index += 3;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
