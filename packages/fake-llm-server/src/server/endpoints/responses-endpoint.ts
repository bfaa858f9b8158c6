import { describeValue } from '@agentbench/helpers';
import { responseBody, responseStreamFrames } from '../../openai/responses.js';
import { responsesPromptText } from '../../openai/token-count.js';
import { openAiErrors } from './openai-error-body.js';
import { answerCompletion } from './answer-completion.js';
import type { CompletionApi } from './completion-api.js';
import type { EndpointHandler } from './endpoint-context.js';

export const RESPONSES_PATH = '/v1/responses';

const responsesApi: CompletionApi = {
  invalidParameter(body) {
    const input = body['input'];
    if (input !== undefined && typeof input !== 'string' && !Array.isArray(input)) {
      return { param: 'input', message: `expected a string or an array of input items, found ${describeValue(input)}` };
    }
    return undefined;
  },
  promptTexts: responsesPromptText,
  ...openAiErrors,
  responseBody,
  streamFrames: responseStreamFrames,
};

/** `POST /v1/responses`: the next reply as a `response`, or its events with `stream: true`. */
export const handleResponses: EndpointHandler = (response, received, context) => answerCompletion(responsesApi, response, received, context);
