import type { IncomingMessage } from 'node:http';
import type { RecordedRequest } from './recorded-request.js';

export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface ReceivedRequest {
  record: RecordedRequest;
  /** Why the body could not be parsed as JSON (or was too large), when it could not. */
  parseError?: string;
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): { body: unknown; isJson: boolean; parseError?: string } {
  if (text === '') return { body: null, isJson: true };
  try {
    return { body: JSON.parse(text) as unknown, isJson: true };
  } catch (error) {
    return { body: text, isJson: false, parseError: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Reads a request's body and appends its record (outcome `pending`) to `requests` as soon as the
 * body has arrived, so its index is its position there.
 */
export async function recordRequest(request: IncomingMessage, requests: RecordedRequest[]): Promise<ReceivedRequest> {
  const text = await readBody(request);
  const path = new URL(request.url ?? '/', 'http://fake-llm-server').pathname.replace(/\/+$/, '') || '/';
  const parsed = text === undefined ? { body: null, isJson: false, parseError: `larger than ${MAX_BODY_BYTES} bytes` } : parseBody(text);
  const record: RecordedRequest = {
    index: requests.length,
    method: request.method ?? 'GET',
    path,
    headers: headersOf(request),
    body: parsed.body,
    receivedAt: Date.now(),
    outcome: 'pending',
  };
  requests.push(record);
  return parsed.parseError === undefined ? { record } : { record, parseError: parsed.parseError };
}
