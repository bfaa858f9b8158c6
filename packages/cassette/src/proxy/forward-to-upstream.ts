import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { recordedResponseHeaders, upstreamRequestHeaders } from './http-headers.js';

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  isStream: boolean;
  /** Set when the upstream could not be reached and the proxy answered 502 itself. */
  upstreamError?: string;
}

/**
 * Sends one request to the upstream and passes the answer to the client as it arrives (a stream
 * event by event), keeping a copy of the bytes for the cassette. A connection the upstream
 * refuses becomes a 502 naming the URL, recorded like any answer, since the client saw it.
 */
export async function forwardToUpstream(options: {
  target: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  response: ServerResponse;
}): Promise<UpstreamAnswer> {
  const { response } = options;
  const controller = new AbortController();
  // A client that hangs up stops the upstream call too.
  const onClose = (): void => {
    if (!response.writableFinished) controller.abort();
  };
  response.on('close', onClose);
  try {
    let upstream: Response;
    try {
      upstream = await fetch(options.target, {
        method: options.method,
        headers: upstreamRequestHeaders(options.headers),
        ...(options.method === 'GET' || options.method === 'HEAD' ? {} : { body: options.body }),
        redirect: 'manual',
        signal: controller.signal,
      });
    } catch (error) {
      const reason = connectionFailure(error);
      const body = JSON.stringify({ error: { message: `the recording proxy cannot reach ${options.target}: ${reason}`, type: 'upstream_unreachable', code: 'upstream_unreachable' } });
      const headers = { 'content-type': 'application/json' };
      if (!response.headersSent && !response.destroyed) response.writeHead(502, headers).end(body);
      return { status: 502, headers, body, isStream: false, upstreamError: reason };
    }
    const headers = recordedResponseHeaders(upstream.headers);
    const isStream = (headers['content-type'] ?? '').includes('text/event-stream');
    response.writeHead(upstream.status, headers);
    const chunks: Buffer[] = [];
    if (upstream.body !== null) {
      try {
        for await (const chunk of upstream.body) {
          const bytes = Buffer.from(chunk as Uint8Array);
          chunks.push(bytes);
          if (!response.destroyed) response.write(bytes);
        }
      } catch (error) {
        // The upstream dropped the answer mid-way: the client sees the same cut, and so does the cassette.
        response.destroy(error instanceof Error ? error : undefined);
        return { status: upstream.status, headers, body: Buffer.concat(chunks).toString('utf8'), isStream, upstreamError: `the answer was cut: ${connectionFailure(error)}` };
      }
    }
    response.end();
    return { status: upstream.status, headers, body: Buffer.concat(chunks).toString('utf8'), isStream };
  } finally {
    response.off('close', onClose);
  }
}

/** `ECONNREFUSED`, `ENOTFOUND host`...: the cause a failed fetch hides. */
export function connectionFailure(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code === 'ECONNREFUSED' ? 'connection refused (ECONNREFUSED)' : `${code}${cause instanceof Error && !cause.message.includes(code) ? `: ${cause.message}` : ''}`;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
