import { ToolsError } from '../errors/tools-error.js';

/**
 * A small glob matcher for list_files (ripgrep's `--glob` rules, so search and list_files
 * agree): a pattern without `/` matches a file's name at any depth (`*.py`), one with `/`
 * matches the whole path relative to the listed folder (`src/**\/*.py`). Supports `*`,
 * `**`, `?`, `[abc]`, `[!abc]`, `{a,b}` and `\` escapes. A trailing `/` means "everything
 * under this folder".
 */
export interface GlobMatcher {
  readonly pattern: string;
  matches(relativePath: string): boolean;
}

/** A glob that cannot be compiled; list_files and search turn it into an `invalid_arguments` tool result. */
export class GlobSyntaxError extends ToolsError {
  override readonly name = 'GlobSyntaxError';
}

export function compileGlob(pattern: string): GlobMatcher {
  let normalized = pattern.trim();
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  if (normalized.endsWith('/')) normalized = `${normalized}**`;
  if (normalized === '') throw new GlobSyntaxError('the glob is empty');
  const isNameOnly = !normalized.includes('/');
  const expression = new RegExp(`^${translate(normalized)}$`, 'u');
  return {
    pattern,
    matches(relativePath: string): boolean {
      const subject = isNameOnly ? relativePath.slice(relativePath.lastIndexOf('/') + 1) : relativePath;
      return expression.test(subject);
    },
  };
}

function translate(pattern: string): string {
  let output = '';
  let braceDepth = 0;
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index] as string;
    switch (character) {
      case '\\': {
        const next = pattern[index + 1];
        if (next === undefined) throw new GlobSyntaxError(`"${pattern}" ends with a lone "\\"`);
        output += escapeRegExp(next);
        index += 1;
        break;
      }
      case '*': {
        if (pattern[index + 1] === '*') {
          const isSegmentStart = index === 0 || pattern[index - 1] === '/';
          let end = index + 2;
          while (pattern[end] === '*') end += 1;
          if (isSegmentStart && pattern[end] === '/') {
            // `**/`: zero or more folders.
            output += '(?:[^/]*(?:/|$))*';
            index = end;
          } else {
            output += '.*';
            index = end - 1;
          }
        } else {
          output += '[^/]*';
        }
        break;
      }
      case '?':
        output += '[^/]';
        break;
      case '[': {
        const close = findClassEnd(pattern, index);
        if (close === -1) throw new GlobSyntaxError(`"${pattern}" has a "[" without its "]"`);
        let body = pattern.slice(index + 1, close);
        let isNegated = false;
        if (body.startsWith('!') || body.startsWith('^')) {
          isNegated = true;
          body = body.slice(1);
        }
        const escapedBody = body.replace(/[\\\]^]/g, (match) => `\\${match}`);
        output += isNegated ? `[^/${escapedBody}]` : `[${escapedBody}]`;
        index = close;
        break;
      }
      case '{':
        braceDepth += 1;
        output += '(?:';
        break;
      case '}':
        if (braceDepth === 0) {
          output += '\\}';
        } else {
          braceDepth -= 1;
          output += ')';
        }
        break;
      case ',':
        output += braceDepth > 0 ? '|' : ',';
        break;
      default:
        output += escapeRegExp(character);
    }
  }
  if (braceDepth > 0) throw new GlobSyntaxError(`"${pattern}" has a "{" without its "}"`);
  return output;
}

function findClassEnd(pattern: string, open: number): number {
  let index = open + 1;
  if (pattern[index] === '!' || pattern[index] === '^') index += 1;
  // A "]" right after the opening bracket is a literal member.
  if (pattern[index] === ']') index += 1;
  for (; index < pattern.length; index += 1) {
    if (pattern[index] === ']') return index;
  }
  return -1;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, (match) => (match === '/' ? '/' : `\\${match}`));
}
