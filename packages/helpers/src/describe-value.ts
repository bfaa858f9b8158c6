const MAX_CHARACTERS = 80;

/** Renders a value for an error message: strings quoted, objects as short JSON, at most 80 characters. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  try {
    const json = JSON.stringify(value);
    return json.length > MAX_CHARACTERS ? `${json.slice(0, MAX_CHARACTERS - 3)}...` : json;
  } catch {
    // A cycle or a value JSON cannot hold (a symbol).
    return String(value);
  }
}
