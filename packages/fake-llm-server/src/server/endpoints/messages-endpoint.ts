import { describeValue } from '@agentbench/helpers';
import { anthropicErrorBody } from '../../anthropic/anthropic-error-body.js';
import { anthropicPromptText } from '../../anthropic/anthropic-prompt-text.js';
import { messageBody, messageStreamFrames } from '../../anthropic/messages.js';
import { answerCompletion } from './answer-completion.js';
import type { CompletionApi } from './completion-api.js';
import type { EndpointHandler } from './endpoint-context.js';

/** Anthropic's endpoint; Claude Code adds `?beta=true`, which the router's path ignores. */
export const MESSAGES_PATH = '/v1/messages';

const messagesApi: CompletionApi = {
  invalidParameter(body) {
    const messages = body['messages'];
    if (!Array.isArray(messages) || messages.length === 0) {
      return { param: 'messages', message: `messages: expected a non-empty array of messages, found ${describeValue(messages)}` };
    }
    const maxTokens = body['max_tokens'];
    if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
      return { param: 'max_tokens', message: `max_tokens: expected an integer >= 1, found ${describeValue(maxTokens)}` };
    }
    // Every other field (thinking, context_management, metadata, tools...) is accepted as the real API accepts it.
    return undefined;
  },
  promptTexts: anthropicPromptText,
  responseBody: (completion) => messageBody(completion),
  streamFrames: (completion) => messageStreamFrames(completion),
  errorBody: (error) => anthropicErrorBody(error.status, error.message),
  scriptedErrorBody: (status) => anthropicErrorBody(status, `fake-llm-server: scripted ${status === 429 ? 'rate limit' : 'error'} (${status})`),
};

/** `POST /v1/messages`: the next reply as an Anthropic `message`, or its events with `stream: true`. */
export const handleMessages: EndpointHandler = (response, received, context) => answerCompletion(messagesApi, response, received, context);
