import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeLlmServerError } from '../errors/fake-llm-server-error.js';
import { DEFAULT_MODEL } from '../openai/resolved-completion.js';
import type { FakeReply } from '../replies/fake-reply.js';
import { checkServerOptions } from './check-server-options.js';
import type { FakeLlmServerOptions } from './fake-llm-server-options.js';
import type { RecordedRequest } from './recorded-request.js';
import { ReplyQueue } from './reply-queue.js';
import { createRequestListener } from './route-request.js';

export interface FakeLlmServer extends AsyncDisposable {
  /** Base URL ending in `/v1`, for `new OpenAI({ baseURL })`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order (completion, model listing, and bad ones alike). */
  readonly requests: readonly RecordedRequest[];
  /** Replies still queued. */
  readonly pendingReplyCount: number;
  /** Adds replies to the queue; they are served before the script function, if any. */
  enqueue(...replies: FakeReply[]): void;
  /** Forgets recorded requests and queued replies; a script function stays. */
  reset(): void;
  /** Stops listening, drops open connections and cancels delayed replies. Safe to call twice. */
  close(): Promise<void>;
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts a scripted OpenAI-compatible server on loopback. */
export async function startFakeLlmServer(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  checkServerOptions(options);
  const host = options.host ?? '127.0.0.1';
  const requests: RecordedRequest[] = [];
  const replies = new ReplyQueue(typeof options.script === 'function' ? options.script : undefined);
  if (Array.isArray(options.script)) replies.push(options.script, (index) => `script[${index}]`);
  const closing = new AbortController();
  const listener = createRequestListener({
    requests,
    context: { replies, models: options.models ?? [DEFAULT_MODEL], closing: closing.signal },
    onRequest: options.onRequest,
  });

  const server = createServer((request, response) => {
    void listener(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(new FakeLlmServerError(`cannot listen on ${host}:${options.port ?? 0}: ${error.message}`, { cause: error }));
    };
    server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      closing.abort();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };

  return {
    url: `http://${formatHost(host)}:${port}/v1`,
    port,
    requests,
    get pendingReplyCount() {
      return replies.length;
    },
    enqueue(...added: FakeReply[]) {
      const offset = replies.length;
      replies.push(added, (index) => `replies[${index}] (queue position ${offset + index})`);
    },
    reset() {
      replies.clear();
      requests.length = 0;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
