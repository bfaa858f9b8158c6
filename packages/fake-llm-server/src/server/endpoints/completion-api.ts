import type { ResolvedCompletion } from '../../openai/resolved-completion.js';

/** What differs between the two completion endpoints (chat completions, Responses). */
export interface CompletionApi {
  /** A parameter other than `model` that the real endpoint would reject, with why. */
  invalidParameter(body: Record<string, unknown>): { param: string; message: string } | undefined;
  /** The texts whose words count as prompt tokens. */
  promptTexts(body: Record<string, unknown>): string[];
  /** The answer as one JSON body. */
  responseBody(completion: ResolvedCompletion, body: Record<string, unknown>): Record<string, unknown>;
  /** The answer as server-sent event frames, for `stream: true`. */
  streamFrames(completion: ResolvedCompletion, body: Record<string, unknown>): string[];
}
