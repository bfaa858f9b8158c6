import type { IncomingHttpHeaders } from 'node:http';

/** Headers that describe one hop of a connection, not the message: never forwarded, never recorded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host', 'upgrade', 'proxy-connection', 'te', 'trailer']);
/** Request headers kept in a cassette: what shapes the answer. Credentials and client fingerprints are not. */
const RECORDED_REQUEST_HEADERS = new Set(['content-type', 'accept', 'openai-beta']);
/** Response headers dropped from a cassette: different on every call and meaningless to a client's logic. */
const UNRECORDED_RESPONSE_HEADERS = new Set(['date', 'set-cookie', 'age', 'cf-ray', 'server']);

/** The incoming request's headers as sent upstream: minus hop-by-hop ones, asking for an uncompressed answer. */
export function upstreamRequestHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'accept-encoding') continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // The cassette keeps the body as text, so it must arrive as text.
  headers['accept-encoding'] = 'identity';
  return headers;
}

export function recordedRequestHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value !== undefined && RECORDED_REQUEST_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The upstream answer's headers as passed to the client and recorded (repeated ones joined with ", "). */
export function recordedResponseHeaders(upstream: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !UNRECORDED_RESPONSE_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
