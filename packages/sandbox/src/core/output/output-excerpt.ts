/** Characters of command output a summary line shows by default. */
export const DEFAULT_EXCERPT_CHARACTERS = 200;

/** Characters of a whole message printed on one line when it may quote output (an error, an evaluation's message). */
export const MESSAGE_EXCERPT_CHARACTERS = 400;

/**
 * A piece of command output made safe for one line of a terminal or a message: control
 * characters (newlines, escape sequences, carriage returns) and other invisible or
 * direction-changing characters are written as escapes (`\n`, `\u001b`), and the text is
 * cut after `maxCharacters` (counted after escaping) with `… (N more characters)`, N counting
 * the original characters left out. Output is sandbox-written: printed as is it could
 * flood the terminal or rewrite what is on it.
 */
export function outputExcerpt(text: string, options: { maxCharacters?: number } = {}): string {
  const maxCharacters = Math.max(0, Math.floor(options.maxCharacters ?? DEFAULT_EXCERPT_CHARACTERS));
  let shown = '';
  let consumed = 0;
  for (const character of text) {
    const escaped = escapeCharacter(character);
    if (shown.length + escaped.length > maxCharacters) break;
    shown += escaped;
    consumed += character.length;
  }
  const rest = text.length - consumed;
  return rest === 0 ? shown : `${shown}… (${rest.toLocaleString('en-US')} more character${rest === 1 ? '' : 's'})`;
}

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// C0 and C1 controls, DEL, zero-width and direction marks, line/paragraph separators, bidi controls, BOM.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/u;

function escapeCharacter(character: string): string {
  const named = NAMED_ESCAPES[character];
  if (named !== undefined) return named;
  if (!INVISIBLE.test(character)) return character;
  return `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}
