// Words made only of these characters mean the same to every POSIX shell, quoted or not.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

export interface QuoteShellWordOptions {
  /** Quote even a plain word (used for test ids, so every id looks alike in the command). */
  isAlwaysQuoted?: boolean;
}

/**
 * Quotes one word for a POSIX shell (`sh -c`). Single quotes keep every character literal
 * (spaces, brackets, `$`, backslashes, newlines); a single quote inside is written as `'\''`
 * (close the quotes, an escaped quote, reopen). The empty word becomes `''`.
 */
export function quoteShellWord(word: string, options: QuoteShellWordOptions = {}): string {
  if (word === '') return "''";
  if (options.isAlwaysQuoted !== true && PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** Quotes each word and joins them with spaces. */
export function quoteShellWords(words: readonly string[], options: QuoteShellWordOptions = {}): string {
  return words.map((word) => quoteShellWord(word, options)).join(' ');
}
