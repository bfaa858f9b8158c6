import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from './endpoints/openai-error-body.js';
import { CHAT_COMPLETIONS_PATH, handleChatCompletions } from './endpoints/chat-completions-endpoint.js';
import type { EndpointContext, EndpointHandler } from './endpoints/endpoint-context.js';
import { COUNT_TOKENS_PATH, handleCountTokens } from './endpoints/count-tokens-endpoint.js';
import { handleMessages, MESSAGES_PATH } from './endpoints/messages-endpoint.js';
import { handleModel, handleModelList, MODELS_PATH } from './endpoints/models-endpoint.js';
import { handleResponses, RESPONSES_PATH } from './endpoints/responses-endpoint.js';
import { recordRequest } from './record-request.js';
import type { RecordedRequest } from './recorded-request.js';
import { sendError, sendJson } from './send-response.js';

const COMPLETION_ENDPOINTS = new Map<string, EndpointHandler>([
  [CHAT_COMPLETIONS_PATH, handleChatCompletions],
  [RESPONSES_PATH, handleResponses],
  [MESSAGES_PATH, handleMessages],
]);
const ROUTES = `POST ${CHAT_COMPLETIONS_PATH}, POST ${RESPONSES_PATH}, POST ${MESSAGES_PATH}, POST ${COUNT_TOKENS_PATH}, GET ${MODELS_PATH}`;

const handleWrongMethod: EndpointHandler = (response, { record }) => {
  sendError(response, record, 'not_found', 405, errorBody(`fake-llm-server: ${record.method} ${record.path} is not served; use POST`, 'invalid_request_error'));
};

const handleUnknownRoute: EndpointHandler = (response, { record }) => {
  sendError(response, record, 'not_found', 404, errorBody(`fake-llm-server: no route for ${record.method} ${record.path}; served: ${ROUTES}`, 'invalid_request_error', 'unknown_url'));
};

/** The endpoint that answers a request, by path and method. */
function endpointFor(record: RecordedRequest): EndpointHandler {
  const completion = COMPLETION_ENDPOINTS.get(record.path);
  if (completion !== undefined) return record.method === 'POST' ? completion : handleWrongMethod;
  if (record.path === COUNT_TOKENS_PATH) return record.method === 'POST' ? handleCountTokens : handleWrongMethod;
  if (record.method === 'GET' && record.path === MODELS_PATH) return handleModelList;
  if (record.method === 'GET' && record.path.startsWith(`${MODELS_PATH}/`)) return handleModel;
  return handleUnknownRoute;
}

export interface RequestListenerOptions {
  /** Every request's record is appended here once its body has arrived. */
  requests: RecordedRequest[];
  context: EndpointContext;
  onRequest: ((request: RecordedRequest) => void) | undefined;
}

/**
 * The server's request listener: records each request, lets its endpoint answer, turns an
 * unexpected error into a 500 (or a dropped connection once the answer has begun), then calls `onRequest`.
 */
export function createRequestListener(options: RequestListenerOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    const received = await recordRequest(request, options.requests);
    const { record } = received;
    try {
      await endpointFor(record)(response, received, options.context);
    } catch (error) {
      record.outcome = 'server_error';
      if (!response.headersSent && !response.destroyed) {
        sendJson(response, record, 500, errorBody(`fake-llm-server: internal error: ${error instanceof Error ? error.message : String(error)}`, 'server_error'));
      } else {
        response.destroy();
      }
    } finally {
      options.onRequest?.(record);
    }
  };
}
