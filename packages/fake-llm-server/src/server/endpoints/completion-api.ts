import type { ResolvedCompletion } from '../../openai/resolved-completion.js';

/** One of the server's own errors, described once and written in each API's error shape. */
export interface ApiErrorDetails {
  status: number;
  message: string;
  /** OpenAI's `type` (`invalid_request_error`...); Anthropic's is taken from the status. */
  type: string;
  code?: string | null;
  param?: string | null;
}

/** What differs between the completion endpoints (Chat Completions, Responses, Anthropic Messages). */
export interface CompletionApi {
  /** A parameter other than `model` that the real endpoint would reject, with why. */
  invalidParameter(body: Record<string, unknown>): { param: string; message: string } | undefined;
  /** The texts whose words count as prompt tokens. */
  promptTexts(body: Record<string, unknown>): string[];
  /** The answer as one JSON body. */
  responseBody(completion: ResolvedCompletion, body: Record<string, unknown>): Record<string, unknown>;
  /** The answer as server-sent event frames, for `stream: true`. */
  streamFrames(completion: ResolvedCompletion, body: Record<string, unknown>): string[];
  /** An error in the API's own shape, so its client parses it as it parses the provider's. */
  errorBody(error: ApiErrorDetails): Record<string, unknown>;
  /** The body of a scripted status without a body of its own. */
  scriptedErrorBody(status: number): Record<string, unknown>;
}
