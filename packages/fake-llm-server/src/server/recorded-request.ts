import type { FakeReply } from '../replies/fake-reply.js';

/** How the server answered a request. */
export type RequestOutcome =
  | 'pending'
  | 'replied'
  | 'status'
  | 'fault'
  | 'script_exhausted'
  | 'script_error'
  | 'invalid_request'
  | 'not_found'
  | 'listed_models'
  | 'counted_tokens'
  | 'client_disconnected'
  | 'server_error';

/** One request as the server received it. */
export interface RecordedRequest {
  /** Position in `server.requests`, from 0. */
  index: number;
  method: string;
  /** URL path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The JSON body parsed; the raw text when it is not JSON; null when empty. */
  body: unknown;
  /** Date.now() when the body had arrived. */
  receivedAt: number;
  /** Set once the server has answered (or decided not to). */
  outcome: RequestOutcome;
  /** The scripted reply that answered it, when one did. */
  reply?: FakeReply;
}
