import { describeValue } from '@agentbench/helpers';
import { isRecord } from '@agentbench/helpers';
import { chatCompletionBody, chatCompletionStreamFrames } from '../../openai/chat-completions.js';
import { chatPromptText } from '../../openai/token-count.js';
import { openAiErrors } from './openai-error-body.js';
import { answerCompletion } from './answer-completion.js';
import type { CompletionApi } from './completion-api.js';
import type { EndpointHandler } from './endpoint-context.js';

export const CHAT_COMPLETIONS_PATH = '/v1/chat/completions';

const chatCompletionsApi: CompletionApi = {
  invalidParameter(body) {
    const messages = body['messages'];
    if (!Array.isArray(messages) || messages.length === 0) {
      return { param: 'messages', message: `expected a non-empty array of messages, found ${describeValue(messages)}` };
    }
    return undefined;
  },
  promptTexts: chatPromptText,
  ...openAiErrors,
  responseBody: (completion) => chatCompletionBody(completion),
  streamFrames(completion, body) {
    const streamOptions = body['stream_options'];
    const includeUsage = isRecord(streamOptions) && streamOptions['include_usage'] === true;
    return chatCompletionStreamFrames(completion, { includeUsage });
  },
};

/** `POST /v1/chat/completions`: the next reply as a `chat.completion`, or its chunks with `stream: true`. */
export const handleChatCompletions: EndpointHandler = (response, received, context) => answerCompletion(chatCompletionsApi, response, received, context);
