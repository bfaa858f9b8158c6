import type { ServerResponse } from 'node:http';
import type { ReceivedRequest } from '../record-request.js';
import type { ReplyQueue } from '../reply-queue.js';

/** What the endpoints share: the server's state. */
export interface EndpointContext {
  readonly replies: ReplyQueue;
  /** What the model endpoints list. */
  readonly models: readonly string[];
  /** Aborted when the server closes; cancels delayed replies. */
  readonly closing: AbortSignal;
}

/** Answers one request whose record has been taken; sets `received.record.outcome`. */
export type EndpointHandler = (response: ServerResponse, received: ReceivedRequest, context: EndpointContext) => void | Promise<void>;
