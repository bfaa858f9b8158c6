/** Most characters of a value from the user's input shown in a message (the rest is counted, not shown). */
export const MAX_SHOWN_VALUE_CHARACTERS = 80;

/** Most characters of a file path shown in a message (paths made from the user's values can be long too). */
export const MAX_SHOWN_PATH_CHARACTERS = 240;

/** Most characters of any one issue message or field path as printed; a safety net for values shown whole. */
export const MAX_SHOWN_MESSAGE_CHARACTERS = 1000;

const SIMPLE_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' };

// Control, format, private-use, unassigned and separator characters other than the space, and lone surrogates:
// shown as escapes so that a binary file or a right-to-left override cannot garble a terminal.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|[^\S ]/u;

function escapeCharacter(character: string, quote: string | undefined): string {
  // quote undefined: a whole message, whose backslashes are its own.
  if (quote !== undefined && character === '\\') return '\\\\';
  if (quote !== undefined && quote !== '' && character === quote) return `\\${quote}`;
  const simple = SIMPLE_ESCAPES[character];
  if (simple !== undefined) return simple;
  if (!INVISIBLE.test(character)) return character;
  const codePoint = character.codePointAt(0) ?? 0;
  return codePoint > 0xffff ? `\\u{${codePoint.toString(16).toUpperCase()}}` : `\\u${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

function countCodePoints(text: string, from: number): number {
  let count = 0;
  for (let index = from; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    count += 1;
  }
  return count;
}

function shorten(text: string, maxCharacters: number, quote: string | undefined): string {
  let shown = '';
  let index = 0;
  let shownCharacters = 0;
  while (index < text.length) {
    const codePoint = text.codePointAt(index) ?? 0;
    const character = String.fromCodePoint(codePoint);
    const escaped = escapeCharacter(character, quote);
    if (shownCharacters + escaped.length > maxCharacters) break;
    shown += escaped;
    shownCharacters += escaped.length;
    index += character.length;
  }
  const mark = quote ?? '';
  if (index >= text.length) return `${mark}${shown}${mark}`;
  const remaining = countCodePoints(text, index);
  return `${mark}${shown}${mark}… (${remaining.toLocaleString('en-US')} more ${remaining === 1 ? 'character' : 'characters'})`;
}

/**
 * Text from the user's input as it may be shown in a message: control and other invisible characters
 * escaped (`\n`, `\u0000`), at most `maxCharacters` (default 80) shown, then `… (N more characters)`.
 * Backslashes are left as they are (use `showValue` for a quoted string).
 */
export function showText(text: string, maxCharacters: number = MAX_SHOWN_VALUE_CHARACTERS): string {
  return shorten(text, maxCharacters, undefined);
}

/**
 * A message as printed: invisible characters escaped (backslashes left alone), at most
 * `MAX_SHOWN_MESSAGE_CHARACTERS`. A safety net for messages that show a value whole.
 */
export function boundMessage(message: string, maxCharacters: number = MAX_SHOWN_MESSAGE_CHARACTERS): string {
  return shorten(message, maxCharacters, undefined);
}

/**
 * A value found in the user's input, for "found X" in a message: a string quoted and escaped as by
 * `showText`, anything else as JSON (a mapping or list is described, not printed), both bounded.
 */
export function showValue(value: unknown, maxCharacters: number = MAX_SHOWN_VALUE_CHARACTERS): string {
  if (typeof value === 'string') return shorten(value, maxCharacters, '"');
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `a list of ${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  if (typeof value === 'object' && value !== null) return 'a mapping';
  if (typeof value === 'bigint') return showText(`${value}n`, maxCharacters);
  if (typeof value === 'symbol' || typeof value === 'function') return typeof value;
  return showText(String(value), maxCharacters);
}
