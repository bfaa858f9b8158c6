/** A field path as segments: object keys and array indexes. */
export type FieldPathSegments = readonly (string | number)[];

/** A path as text (`run[0].evaluations[1].value`) or as segments. */
export type FieldPath = string | FieldPathSegments;

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `["run", 0, "input"]` → `run[0].input`; keys that are not simple names are quoted: `virtual_fs["a/b.txt"]`. */
export function formatFieldPath(segments: FieldPathSegments): string {
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (SIMPLE_KEY.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** The inverse of `formatFieldPath`: `run[0].evaluations[1].value` → `["run", 0, "evaluations", 1, "value"]`. */
export function parseFieldPath(path: FieldPath): (string | number)[] {
  if (typeof path !== 'string') return [...path];
  const segments: (string | number)[] = [];
  const pattern = /([^.[\]]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.matchAll(pattern)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[3] !== undefined) segments.push(JSON.parse(match[3]) as string);
  }
  return segments;
}

/** `formatFieldPath` for messages: a key longer than 80 characters is cut (`["aaaa…"]`); the position still says where. */
export function showFieldPath(segments: FieldPathSegments): string {
  const limit = 80;
  return formatFieldPath(segments.map((segment) => (typeof segment === 'string' && segment.length > limit ? `${segment.slice(0, limit)}…` : segment)));
}
