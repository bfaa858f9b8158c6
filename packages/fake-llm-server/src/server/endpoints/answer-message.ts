import type { ServerResponse } from 'node:http';
import { resolveCompletion } from '../../openai/resolved-completion.js';
import type { Fault, NormalizedMessage } from '../../replies/fake-reply.js';
import type { RecordedRequest } from '../recorded-request.js';
import { requestedModel } from '../request-text.js';
import { sendJson, writeFrames } from '../send-response.js';
import type { CompletionApi } from './completion-api.js';

export interface MessageFault {
  kind: Fault;
  /** Stream frames sent before the fault; default half (truncated_body) or none (drop_connection). */
  afterChunks: number | undefined;
}

/** Sends a scripted message as the API's answer, whole or streamed, broken by `fault` when there is one. */
export async function answerMessage(
  api: CompletionApi,
  response: ServerResponse,
  record: RecordedRequest,
  body: Record<string, unknown>,
  message: NormalizedMessage,
  fault?: MessageFault,
): Promise<void> {
  const completion = resolveCompletion(message, {
    sequence: record.index,
    requestModel: requestedModel(record),
    promptTexts: api.promptTexts(body),
    now: Date.now(),
  });
  const isStream = body['stream'] === true;
  if (!isStream) {
    if (fault?.kind === 'drop_connection') {
      response.socket?.destroy();
      return;
    }
    const full = api.responseBody(completion, body);
    if (fault?.kind === 'truncated_body') {
      const text = JSON.stringify(full);
      sendJson(response, record, 200, text.slice(0, Math.floor(text.length / 2)), { 'content-type': 'application/json' });
      return;
    }
    sendJson(response, record, 200, full);
    return;
  }
  const frames = api.streamFrames(completion, body);
  if (fault === undefined) {
    await writeFrames(response, record, frames);
    response.end();
    return;
  }
  const defaultCount = fault.kind === 'drop_connection' ? 0 : Math.floor(frames.length / 2);
  // Never the whole stream: a fault always loses at least the last frame.
  const count = Math.min(fault.afterChunks ?? defaultCount, frames.length - 1);
  if (fault.kind === 'drop_connection' && count === 0) {
    response.socket?.destroy();
    return;
  }
  await writeFrames(response, record, frames.slice(0, count));
  if (fault.kind === 'drop_connection') response.socket?.destroy();
  else response.end();
}
