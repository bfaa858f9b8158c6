import { createHash } from 'node:crypto';

/**
 * What changes between two runs of the same attempt without changing what the model is asked:
 * the agent's observation says how many seconds are left, test runners print their durations,
 * log paths carry the run's ULID. Each is masked before hashing, so a replay's request finds its
 * recording. Everything else in the body counts: any field may change the answer.
 */
const VOLATILE_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<timestamp>'],
  [/\b[0-9A-HJKMNP-TV-Z]{26}\b/g, '<ulid>'],
  [/\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds)\b/g, '<duration>'],
];

/** A request body with its volatile text masked and its object keys sorted: equal requests normalise to equal values. */
export function normalizeRequestBody(body: unknown): unknown {
  if (typeof body === 'string') return maskVolatileText(body);
  if (Array.isArray(body)) return body.map(normalizeRequestBody);
  if (typeof body === 'object' && body !== null) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(body).sort()) sorted[key] = normalizeRequestBody((body as Record<string, unknown>)[key]);
    return sorted;
  }
  return body;
}

export function maskVolatileText(text: string): string {
  let masked = text;
  for (const [pattern, replacement] of VOLATILE_PATTERNS) masked = masked.replace(pattern, replacement);
  return masked;
}

/** sha256 (hex) of the endpoint and the normalised body: the identity of a request. */
export function requestHash(endpoint: string, body: unknown): string {
  return createHash('sha256').update(`${endpoint}\n${JSON.stringify(normalizeRequestBody(body))}`).digest('hex');
}

/**
 * The key a replay looks an exchange up by. The occurrence tells a retry (the same request
 * after a 429) from the first try; the repeat index keeps the repeats of one task apart.
 */
export function exchangeKey(parts: { requestHash: string; occurrence: number; repeatIndex: number }): string {
  return `${parts.requestHash}:${parts.occurrence}:${parts.repeatIndex}`;
}
