import type { FakeReply, NormalizedReply } from '../replies/fake-reply.js';
import { normalizeReply } from '../replies/normalize-reply.js';
import type { FakeScriptFunction } from './fake-llm-server-options.js';
import type { RecordedRequest } from './recorded-request.js';

export interface QueuedReply {
  reply: FakeReply;
  normalized: NormalizedReply;
}

/** The replies waiting for requests: queued ones first, then the script function, if any. */
export class ReplyQueue {
  readonly #queued: QueuedReply[] = [];
  readonly #scriptFunction: FakeScriptFunction | undefined;

  constructor(scriptFunction: FakeScriptFunction | undefined) {
    this.#scriptFunction = scriptFunction;
  }

  get length(): number {
    return this.#queued.length;
  }

  /** Checks every reply before queueing any, so a bad batch leaves the queue as it was. */
  push(replies: readonly FakeReply[], fieldOf: (index: number) => string): void {
    const checked = replies.map((reply, index) => ({ reply, normalized: normalizeReply(reply, fieldOf(index)) }));
    this.#queued.push(...checked);
  }

  /** The reply for this request, or undefined when the script is exhausted. A script function's error is thrown. */
  async next(record: RecordedRequest): Promise<QueuedReply | undefined> {
    const queued = this.#queued.shift();
    if (queued !== undefined || this.#scriptFunction === undefined) return queued;
    const reply = await this.#scriptFunction(record);
    if (reply === undefined) return undefined;
    return { reply, normalized: normalizeReply(reply, `script(requests[${record.index}])`) };
  }

  /** Forgets the queued replies; the script function stays. */
  clear(): void {
    this.#queued.length = 0;
  }
}
