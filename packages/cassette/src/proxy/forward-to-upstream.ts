import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { sendGatewayError } from './gateway-error.js';
import { CLIENT_CREDENTIAL_HEADERS } from './gateway-upstreams.js';
import { recordedResponseHeaders, upstreamRequestHeaders } from './http-headers.js';
import type { ApiProvider } from './wire-api.js';

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
  /** Whose dialect the gateway's own error (an unreachable upstream) is written in. */
  provider: ApiProvider;
  /** Credential headers the gateway sets in place of the client's; none: the client's pass through. */
  credentials?: Record<string, string>;
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
        headers: withCredentials(upstreamRequestHeaders(options.headers), options.credentials),
        ...(options.method === 'GET' || options.method === 'HEAD' ? {} : { body: options.body }),
        redirect: 'manual',
        signal: controller.signal,
      });
    } catch (error) {
      const reason = connectionFailure(error);
      // Retryable (no x-should-retry: false): the upstream may be back on the client's next try.
      const sent = sendGatewayError(response, { provider: options.provider, status: 502, code: 'upstream_unreachable', message: `agentbench gateway: cannot reach the upstream ${options.target}: ${reason}`, isFinal: false });
      return { ...sent, isStream: false, upstreamError: reason };
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

/** The request's headers with the client's credentials replaced by the gateway's, when it has some. */
function withCredentials(headers: Record<string, string>, credentials: Record<string, string> | undefined): Record<string, string> {
  if (credentials === undefined) return headers;
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !CLIENT_CREDENTIAL_HEADERS.has(name)));
  return { ...kept, ...credentials };
}

/** `ECONNREFUSED`, `ENOTFOUND host`...: the cause a failed fetch hides. */
export function connectionFailure(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code === 'ECONNREFUSED' ? 'connection refused (ECONNREFUSED)' : `${code}${cause instanceof Error && !cause.message.includes(code) ? `: ${cause.message}` : ''}`;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
