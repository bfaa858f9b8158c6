import type * as OpenAiModule from 'openai';
import type { APIError } from 'openai';
import { LlmError } from '../errors/llm-error.js';
import { parseRetryAfter } from './retry-policy.js';

/**
 * Turns whatever a model call threw into an `LlmError` with a kind the loop can act on.
 * Matched on the `openai` classes first, then on shapes (a copy of `openai` elsewhere in
 * node_modules throws its own classes).
 */
// The `openai` package (~240 modules, ~0.5 s of CPU to import) is loaded on a client's first call, not
// when this package is: `ab run` with the scripted agent, `ab validate` and the like never call a model.
let openAi: typeof OpenAiModule | undefined;

/** The `openai` package, imported once, on the first model call. */
export async function loadOpenAi(): Promise<typeof OpenAiModule> {
  openAi ??= await import('openai');
  return openAi;
}

export function normalizeLlmError(error: unknown, context: { baseURL: string; model: string; timeoutMs: number }): LlmError {
  if (LlmError.isInstance(error)) return error;
  // Before the package is loaded no error of its classes can exist: the shapes below still apply.
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = openAi ?? {};
  const where = `${context.baseURL} (model ${context.model})`;
  if ((APIUserAbortError !== undefined && error instanceof APIUserAbortError) || isAbortError(error)) {
    return new LlmError(`request to ${where} was aborted`, { kind: 'aborted', isRetryable: false, cause: error });
  }
  if (APIConnectionTimeoutError !== undefined && error instanceof APIConnectionTimeoutError) {
    return new LlmError(`request to ${where} timed out after ${context.timeoutMs} ms`, { kind: 'timeout', isRetryable: true, cause: error });
  }
  if (APIConnectionError !== undefined && error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new LlmError(`could not reach ${where}${cause}`, { kind: 'network', isRetryable: true, cause: error });
  }
  if ((APIError !== undefined && error instanceof APIError) || isApiErrorShape(error)) {
    const status = (error as APIError).status;
    const headers = (error as APIError).headers;
    const requestId = (error as APIError).requestID ?? undefined;
    const retryAfterMs = parseRetryAfter(headers);
    const message = (error as Error).message;
    const details = {
      status: status ?? 0,
      cause: error,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...(requestId === undefined || requestId === null ? {} : { requestId }),
    };
    if (status === 429) return new LlmError(`rate limited by ${where}: ${message}`, { kind: 'rate_limit', isRetryable: true, ...details });
    if (status === 401 || status === 403) {
      return new LlmError(`${where} rejected the API key (HTTP ${status}): ${message}; check the key's value and its access to this model`, {
        kind: 'auth',
        isRetryable: false,
        ...details,
      });
    }
    // 408 (request timeout) and 409 (conflict/lock) are transient, as for the openai client itself.
    if (status !== undefined && (status >= 500 || status === 408 || status === 409)) {
      return new LlmError(`${where} failed (HTTP ${status}): ${message}`, { kind: 'server_error', isRetryable: true, ...details });
    }
    return new LlmError(`${where} refused the request (HTTP ${status ?? 'unknown'}): ${message}`, { kind: 'bad_request', isRetryable: false, ...details });
  }
  if (error instanceof SyntaxError) {
    return new LlmError(`${where} sent a body that is not valid JSON: ${error.message}`, { kind: 'malformed_response', isRetryable: true, cause: error });
  }
  if (error instanceof TypeError && /fetch failed|terminated|socket|ECONN/i.test(`${error.message} ${String((error as { cause?: unknown }).cause)}`)) {
    return new LlmError(`connection to ${where} failed: ${error.message}`, { kind: 'network', isRetryable: true, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError(`unexpected failure calling ${where}: ${message}`, { kind: 'malformed_response', isRetryable: false, cause: error });
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

function isApiErrorShape(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && 'headers' in error && 'requestID' in error;
}
