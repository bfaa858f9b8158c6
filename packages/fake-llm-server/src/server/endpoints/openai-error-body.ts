import type { CompletionApi } from './completion-api.js';

/** An error body in OpenAI's shape: `{ error: { message, type, param, code } }`. */
export function errorBody(message: string, type: string, code: string | null = null, param: string | null = null): Record<string, unknown> {
  return { error: { message, type, param, code } };
}

/** The error body OpenAI would send for this status, for scripted statuses without a body. */
export function defaultErrorBodyForStatus(status: number): Record<string, unknown> {
  if (status === 429) return errorBody('fake-llm-server: scripted rate limit (429)', 'requests', 'rate_limit_exceeded');
  if (status === 401) return errorBody('fake-llm-server: scripted authentication error (401)', 'invalid_request_error', 'invalid_api_key');
  if (status >= 500) return errorBody(`fake-llm-server: scripted server error (${status})`, 'server_error');
  return errorBody(`fake-llm-server: scripted error (${status})`, 'invalid_request_error');
}

/** The error shapes of the two OpenAI endpoints, for their `CompletionApi`. */
export const openAiErrors: Pick<CompletionApi, 'errorBody' | 'scriptedErrorBody'> = {
  errorBody: (error) => errorBody(error.message, error.type, error.code ?? null, error.param ?? null),
  scriptedErrorBody: defaultErrorBodyForStatus,
};
