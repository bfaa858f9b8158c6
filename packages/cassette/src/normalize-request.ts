import { createHash } from 'node:crypto';

/**
 * What changes between two runs of the same attempt without changing what the model is asked:
 * the agent's observation says how many seconds are left, test runners print their durations,
 * log paths carry the run's ULID, CLI agents send their session's UUIDs. Each is masked before hashing, so a replay's request finds its
 * recording. Everything else in the body counts: any field may change the answer.
 */
const ULID_PATTERN = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g;

const VOLATILE_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<timestamp>'],
  [ULID_PATTERN, '<ulid>'],
  // CLI agents name their session, turn and installation by UUIDs in every request (Codex's
  // prompt_cache_key, client_metadata, message ids `msg_<uuid>`) and their per-run HOME
  // (`mktemp -d /tmp/NAME.XXXXXX`): new ones each run, the model asked the same.
  [/(?<![0-9A-Fa-f])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9A-Fa-f])/g, '<uuid>'],
  [/(\/tmp\/[A-Za-z0-9_-]+)\.[A-Za-z0-9]{6}\b/g, '$1.<temp>'],
  // Codex names each command's output chunk at random (`Chunk ID: 82369e`) in the tool result it sends back.
  [/\bChunk ID: [0-9a-f]+\b/g, 'Chunk ID: <chunk>'],
  [/\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds)\b/g, '<duration>'],
];

/**
 * Top-level fields that tell the provider who asks, never what the model is asked: CLI agents fill
 * them with their session's ids and counters (Codex's `client_metadata` and `prompt_cache_key`,
 * Claude Code's `metadata.user_id`), new each run.
 */
const CLIENT_METADATA_FIELDS: ReadonlySet<string> = new Set(['client_metadata', 'prompt_cache_key', 'metadata']);

/** A request body with its volatile text masked, its client metadata left out and its object keys sorted: equal requests normalise to equal values. */
export function normalizeRequestBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return normalizeValue(body);
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(body).sort()) if (!CLIENT_METADATA_FIELDS.has(key)) sorted[key] = normalizeValue((body as Record<string, unknown>)[key]);
  return sorted;
}

function normalizeValue(body: unknown): unknown {
  if (typeof body === 'string') return maskVolatileText(body);
  if (Array.isArray(body)) return body.map(normalizeValue);
  if (typeof body === 'object' && body !== null) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(body).sort()) sorted[key] = normalizeValue((body as Record<string, unknown>)[key]);
    return sorted;
  }
  return body;
}

export function maskVolatileText(text: string): string {
  // Every pattern needs a digit but the ULID one, which needs a run of 26 of its characters:
  // texts without either (most of a prompt) skip the regular expressions, the gateway's largest
  // cost on a long request. The result is the same either way.
  const hasDigit = /\d/.test(text);
  if (!hasDigit && !hasUlidRun(text) && !text.includes('/tmp/')) return text;
  let masked = text;
  for (const [pattern, replacement] of VOLATILE_PATTERNS) {
    if (pattern === ULID_PATTERN && !hasUlidRun(masked)) continue;
    masked = masked.replace(pattern, replacement);
  }
  return masked;
}

/** Whether a text holds 26 ULID characters (Crockford base32, upper case) in a row: what the ULID pattern needs to match. */
function hasUlidRun(text: string): boolean {
  let run = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const isDigit = code >= 48 && code <= 57;
    // A-Z without I (73), L (76), O (79), U (85).
    const isLetter = code >= 65 && code <= 90 && code !== 73 && code !== 76 && code !== 79 && code !== 85;
    run = isDigit || isLetter ? run + 1 : 0;
    if (run >= 26) return true;
  }
  return false;
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
