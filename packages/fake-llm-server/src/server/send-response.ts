import type { ServerResponse } from 'node:http';
import type { RecordedRequest, RequestOutcome } from './recorded-request.js';

/** Sends a JSON body (or a string as text), with the request id a real API sends. */
export function sendJson(response: ServerResponse, record: RecordedRequest, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_fake_${record.index}`,
    ...headers,
  });
  response.end(text);
}

/** Sends one of the server's own errors and records its outcome. */
export function sendError(response: ServerResponse, record: RecordedRequest, outcome: RequestOutcome, status: number, body: Record<string, unknown>): void {
  record.outcome = outcome;
  // Our own errors are final: a retry would get the same answer.
  sendJson(response, record, status, body, { 'x-should-retry': 'false' });
}

/** Starts a server-sent event stream and writes the frames; the caller ends or drops it. */
export async function writeFrames(response: ServerResponse, record: RecordedRequest, frames: readonly string[]): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': `req_fake_${record.index}`,
  });
  for (const frame of frames) {
    // Wait until each frame reached the socket, so a drop that follows cannot swallow it.
    await new Promise<void>((resolve) => response.write(frame, () => resolve()));
  }
}
