import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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

// Kept-alive connections to the upstreams: a model request pays no new TCP (or TLS) handshake.
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

/**
 * Sends one request to the upstream and passes the answer to the client as it arrives (a stream
 * event by event), keeping a copy of the bytes for the cassette. A connection the upstream
 * refuses becomes a 502 naming the URL, recorded like any answer, since the client saw it.
 * Node's `http.request` rather than `fetch`: it costs a few milliseconds less per request on a
 * loaded machine (`bench/gateway.bench.mjs`), and the gateway's budget is 2 ms.
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
  const url = new URL(options.target);
  const isHttps = url.protocol === 'https:';
  const headers = withCredentials(upstreamRequestHeaders(options.headers), options.credentials);
  const hasBody = options.method !== 'GET' && options.method !== 'HEAD';
  if (hasBody) headers['content-length'] = String(options.body.length);

  return new Promise<UpstreamAnswer>((resolve) => {
    const chunks: Buffer[] = [];
    let answer: IncomingMessage | undefined;
    let isSettled = false;
    const settle = (value: UpstreamAnswer): void => {
      if (isSettled) return;
      isSettled = true;
      response.off('close', onClientClose);
      resolve(value);
    };
    const upstream = (isHttps ? httpsRequest : httpRequest)(
      url,
      { method: options.method, headers, agent: isHttps ? httpsAgent : httpAgent },
      (incoming) => {
        answer = incoming;
        const status = incoming.statusCode ?? 502;
        const recorded = recordedResponseHeaders(incoming.headers);
        const isStream = (recorded['content-type'] ?? '').includes('text/event-stream');
        response.writeHead(status, recorded);
        incoming.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (!response.destroyed) response.write(chunk);
        });
        incoming.on('end', () => {
          response.end();
          settle({ status, headers: recorded, body: Buffer.concat(chunks).toString('utf8'), isStream });
        });
        incoming.on('error', (error) => {
          // The upstream dropped the answer mid-way: the client sees the same cut, and so does the cassette.
          response.destroy(error);
          settle({ status, headers: recorded, body: Buffer.concat(chunks).toString('utf8'), isStream, upstreamError: `the answer was cut: ${connectionFailure(error)}` });
        });
        incoming.on('aborted', () => incoming.emit('error', Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
      },
    );
    upstream.on('error', (error) => {
      if (answer !== undefined) return; // reported by the answer's own error
      const reason = connectionFailure(error);
      // Retryable (no x-should-retry: false): the upstream may be back on the client's next try.
      const sent = sendGatewayError(response, { provider: options.provider, status: 502, code: 'upstream_unreachable', message: `agentbench gateway: cannot reach the upstream ${options.target}: ${reason}`, isFinal: false });
      settle({ ...sent, isStream: false, upstreamError: reason });
    });
    // A client that hangs up stops the upstream call too.
    const onClientClose = (): void => {
      if (!response.writableFinished) upstream.destroy(new Error('the client closed the connection'));
    };
    response.on('close', onClientClose);
    upstream.end(hasBody ? options.body : undefined);
  });
}

/** The request's headers with the client's credentials replaced by the gateway's, when it has some. */
function withCredentials(headers: Record<string, string>, credentials: Record<string, string> | undefined): Record<string, string> {
  if (credentials === undefined) return headers;
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !CLIENT_CREDENTIAL_HEADERS.has(name)));
  return { ...kept, ...credentials };
}

/** `ECONNREFUSED`, `ENOTFOUND host`...: the cause a failed request names. */
export function connectionFailure(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code === 'ECONNREFUSED' ? 'connection refused (ECONNREFUSED)' : `${code}${cause instanceof Error && !cause.message.includes(code) ? `: ${cause.message}` : ''}`;
  if (cause instanceof Error) return cause.message;
  return String(error);
}
