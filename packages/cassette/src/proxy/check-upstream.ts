import { connect } from 'node:net';
import { UpstreamUnreachableError } from '../errors/upstream-unreachable-error.js';

/**
 * Opens (and closes) a TCP connection to the upstream, so `ab proxy --record` stops at start with
 * one line when nothing listens there, rather than answering 502 to every request later.
 */
export async function checkUpstream(upstream: string, timeoutMs = 5000): Promise<void> {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new UpstreamUnreachableError(upstream, 'not a URL (expected e.g. https://openrouter.ai/api/v1 or http://127.0.0.1:8000/v1)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UpstreamUnreachableError(upstream, `expected an http(s) URL, found the scheme ${url.protocol}`);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port });
    const fail = (reason: string, cause?: unknown): void => {
      socket.destroy();
      reject(new UpstreamUnreachableError(upstream, reason, { cause }));
    };
    socket.setTimeout(timeoutMs, () => fail(`no connection within ${timeoutMs} ms`));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      fail(error.code === 'ECONNREFUSED' ? 'connection refused (ECONNREFUSED)' : error.code === 'ENOTFOUND' ? `no such host ${host} (ENOTFOUND)` : error.message, error);
    });
  });
}
