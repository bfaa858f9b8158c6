/** A plain JSON object: not null, not an array. The guard every reader of parsed JSON needs before it looks at a field. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
