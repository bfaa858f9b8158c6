/** Most characters of an evaluation's `message` (and `error`) kept in a report and so in `result.json`. */
export const MAX_EVALUATION_MESSAGE_CHARACTERS = 4000;

/** Most characters of an evaluation's `details`, as JSON, kept in a report. */
export const MAX_EVALUATION_DETAILS_CHARACTERS = 64 * 1024;

/** Inside `details` over the limit: strings are cut at this length, lists and mappings at `DETAILS_ITEMS` entries. */
const DETAILS_STRING_CHARACTERS = 1000;
const DETAILS_ITEMS = 100;
const DETAILS_DEPTH = 20;
/** Values visited when shrinking details; a cycle or a huge tree stops here. */
const DETAILS_NODES = 10_000;
/** JSON kept as a preview when shrinking was not enough. */
const DETAILS_PREVIEW_CHARACTERS = 4000;

/** `text` cut at `maxCharacters` (never inside a surrogate pair) with the cut marked: `… [cut: N more characters]`. */
export function capText(text: string, maxCharacters: number = MAX_EVALUATION_MESSAGE_CHARACTERS): string {
  if (text.length <= maxCharacters) return text;
  let end = maxCharacters;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const remaining = text.length - end;
  return `${text.slice(0, end)}… [cut: ${remaining.toLocaleString('en-US')} more characters]`;
}

interface ShrinkState {
  nodes: number;
  seen: WeakSet<object>;
  isCut: boolean;
}

function shrink(value: unknown, depth: number, state: ShrinkState): unknown {
  state.nodes += 1;
  if (state.nodes > DETAILS_NODES) {
    state.isCut = true;
    return '… [cut: details too large]';
  }
  if (typeof value === 'string') {
    if (value.length > DETAILS_STRING_CHARACTERS) state.isCut = true;
    return capText(value, DETAILS_STRING_CHARACTERS);
  }
  if (typeof value !== 'object' || value === null) return value;
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return shrink(withJson.toJSON(), depth, state);
  if (state.seen.has(value)) {
    state.isCut = true;
    return '[circular]';
  }
  if (depth >= DETAILS_DEPTH) {
    state.isCut = true;
    return `… [cut: nested deeper than ${DETAILS_DEPTH} levels]`;
  }
  state.seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.slice(0, DETAILS_ITEMS).map((item) => shrink(item, depth + 1, state));
      if (value.length > DETAILS_ITEMS) state.isCut = true;
      if (value.length > DETAILS_ITEMS) items.push(`… [cut: ${(value.length - DETAILS_ITEMS).toLocaleString('en-US')} more items]`);
      return items;
    }
    const entries = Object.entries(value);
    const result: Record<string, unknown> = {};
    for (const [key, item] of entries.slice(0, DETAILS_ITEMS)) {
      if (key.length > DETAILS_STRING_CHARACTERS) state.isCut = true;
      result[capText(key, DETAILS_STRING_CHARACTERS)] = shrink(item, depth + 1, state);
    }
    if (entries.length > DETAILS_ITEMS) state.isCut = true;
    if (entries.length > DETAILS_ITEMS) result['…'] = `[cut: ${(entries.length - DETAILS_ITEMS).toLocaleString('en-US')} more keys]`;
    return result;
  } finally {
    state.seen.delete(value);
  }
}

function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * `details` as a report keeps them: unchanged when their JSON fits in `maxCharacters`; otherwise long
 * strings, lists and mappings are cut with a marker saying how much, and if that is still too much,
 * a `{cut, preview}` object holds the start of the JSON. Details that cannot be JSON become a note.
 */
export function capDetails(details: unknown, maxCharacters: number = MAX_EVALUATION_DETAILS_CHARACTERS): unknown {
  if (details === undefined) return undefined;
  const state: ShrinkState = { nodes: 0, seen: new WeakSet(), isCut: false };
  const shrunk = shrink(details, 0, state);
  const json = jsonOf(shrunk);
  if (json === undefined) return { cut: 'the details could not be stored as JSON' };
  // Small enough and nothing cut: keep the evaluator's own value.
  if (json.length <= maxCharacters && !state.isCut) return details;
  if (json.length <= maxCharacters) return shrunk;
  return {
    cut: `the details were over ${maxCharacters.toLocaleString('en-US')} characters of JSON even with long values cut; the first ${DETAILS_PREVIEW_CHARACTERS.toLocaleString('en-US')} follow`,
    preview: json.slice(0, DETAILS_PREVIEW_CHARACTERS),
  };
}
