import type { FakeReply } from '../replies/fake-reply.js';
import type { RecordedRequest } from './recorded-request.js';

/** Picks the reply for a request; `undefined` means "nothing for this one" (the script is exhausted). */
export type FakeScriptFunction = (request: RecordedRequest) => FakeReply | undefined | Promise<FakeReply | undefined>;

/** Replies consumed in order, or a function that answers each request. */
export type FakeScript = readonly FakeReply[] | FakeScriptFunction;

export interface FakeLlmServerOptions {
  /** Replies in order, or a function `(request) => reply`. Default: none (every completion request is "script exhausted"). */
  script?: FakeScript;
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1: loopback only. */
  host?: string;
  /** What `GET /v1/models` lists. Default `['fake-model']`. */
  models?: readonly string[];
  /** Called after each request has been answered, with its record. */
  onRequest?: (request: RecordedRequest) => void;
}
