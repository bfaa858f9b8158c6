import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeValue } from '@agentbench/helpers';
import { FakeLlmServerError } from '../../errors/fake-llm-server-error.js';
import { isRecord } from '@agentbench/helpers';
import type { ReceivedRequest } from '../record-request.js';
import type { RecordedRequest } from '../recorded-request.js';
import type { QueuedReply } from '../reply-queue.js';
import { lastUserText, requestedModel } from '../request-text.js';
import { sendError, sendJson } from '../send-response.js';
import { answerMessage } from './answer-message.js';
import type { CompletionApi } from './completion-api.js';
import type { EndpointContext } from './endpoint-context.js';

/** A one-line description of a request for error messages: which request, what it asked. */
function describeRequest(record: RecordedRequest): string {
  const parts = [`${record.method} ${record.path}`];
  const model = requestedModel(record);
  if (model !== undefined) parts.push(`model ${JSON.stringify(model)}`);
  const text = lastUserText(record);
  if (text !== undefined) parts.push(`last user message ${JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text)}`);
  return `requests[${record.index}] (${parts.join(', ')})`;
}

/** Checks what a real endpoint would reject, so a client bug shows up as the 400 it would get. */
function invalidParameter(api: CompletionApi, body: Record<string, unknown>): { param: string; message: string } | undefined {
  const model = body['model'];
  if (typeof model !== 'string' || model === '') {
    return { param: 'model', message: `you must provide a model parameter (a non-empty string), found ${describeValue(model)}` };
  }
  return api.invalidParameter(body);
}

/**
 * Answers a completion request (any of the three APIs) with the next scripted reply: a 400 for a request the real
 * endpoint would reject (no reply consumed), a 500 when the script is exhausted or its function throws,
 * else the reply after its delay (a status, a message, or a message broken by a fault).
 */
export async function answerCompletion(api: CompletionApi, response: ServerResponse, received: ReceivedRequest, context: EndpointContext): Promise<void> {
  const { record, parseError } = received;
  if (parseError !== undefined || !isRecord(record.body)) {
    const found = parseError === undefined ? `found ${describeValue(record.body)}` : parseError;
    sendError(response, record, 'invalid_request', 400, api.errorBody({ status: 400, message: `fake-llm-server: the body must be a JSON object: ${found}`, type: 'invalid_request_error' }));
    return;
  }
  const body = record.body;
  const invalid = invalidParameter(api, body);
  if (invalid !== undefined) {
    sendError(response, record, 'invalid_request', 400, api.errorBody({ status: 400, message: `fake-llm-server: ${invalid.message}`, type: 'invalid_request_error', param: invalid.param }));
    return;
  }
  let queued: QueuedReply | undefined;
  try {
    queued = await context.replies.next(record);
  } catch (error) {
    const reason = FakeLlmServerError.isInstance(error) ? error.message : `the script function threw: ${error instanceof Error ? error.message : String(error)}`;
    sendError(response, record, 'script_error', 500, api.errorBody({ status: 500, message: `fake-llm-server: ${reason}`, type: 'fake_llm_server_error', code: 'script_error' }));
    return;
  }
  if (queued === undefined) {
    const message =
      `fake-llm-server: script exhausted: no reply left for ${describeRequest(record)}. ` +
      'Add replies to the script or call enqueue() before this request.';
    sendError(response, record, 'script_exhausted', 500, api.errorBody({ status: 500, message, type: 'fake_llm_server_error', code: 'script_exhausted' }));
    return;
  }
  record.reply = queued.reply;
  const reply = queued.normalized;
  if (reply.delayMs > 0) {
    try {
      await sleep(reply.delayMs, undefined, { signal: context.closing });
    } catch {
      return; // The server is closing; its connections are being destroyed.
    }
  }
  if (response.destroyed || response.socket === null || response.socket.destroyed) {
    record.outcome = 'client_disconnected'; // The client gave up waiting.
    return;
  }
  switch (reply.kind) {
    case 'status': {
      record.outcome = 'status';
      const body = reply.body === undefined ? api.scriptedErrorBody(reply.status) : reply.body;
      sendJson(response, record, reply.status, body, reply.headers);
      return;
    }
    case 'message':
      record.outcome = 'replied';
      await answerMessage(api, response, record, body, reply.message);
      return;
    case 'fault':
      record.outcome = 'fault';
      await answerMessage(api, response, record, body, reply.message, { kind: reply.fault, afterChunks: reply.afterChunks });
      return;
  }
}
