import { anthropicErrorBody } from '../../anthropic/anthropic-error-body.js';
import { anthropicPromptText } from '../../anthropic/anthropic-prompt-text.js';
import { isRecord } from '@agentbench/helpers';
import { countWordsIn } from '../../openai/token-count.js';
import { sendError, sendJson } from '../send-response.js';
import type { EndpointHandler } from './endpoint-context.js';

/** Anthropic's token counting endpoint, which Claude Code may call before a turn. */
export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** `POST /v1/messages/count_tokens`: `{ input_tokens }`, the words the request's prompt would count; consumes no reply. */
export const handleCountTokens: EndpointHandler = (response, { record, parseError }) => {
  if (parseError !== undefined || !isRecord(record.body) || !Array.isArray(record.body['messages'])) {
    sendError(response, record, 'invalid_request', 400, anthropicErrorBody(400, 'fake-llm-server: messages: expected an array of messages'));
    return;
  }
  record.outcome = 'counted_tokens';
  sendJson(response, record, 200, { input_tokens: countWordsIn(anthropicPromptText(record.body)) });
};
