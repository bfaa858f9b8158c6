import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import { ConfigurationError } from '@agentbench/schemas';
import { LlmError } from '../errors/llm-error.js';
import { chatRequestBody, readChatCompletion } from './chat-completions-api.js';
import type { LlmApi, LlmClient, LlmRequest, LlmResponse } from '../contract/llm-types.js';
import { checkPricing, type ModelPricing } from './llm-usage.js';
import { loadOpenAi, normalizeLlmError } from './normalize-llm-error.js';
import { readResponse, responsesRequestBody } from './responses-api.js';
import { backoffDelayMs, resolveRetryPolicy, type RetryPolicy } from './retry-policy.js';
import type { SamplingOptions } from './sampling-options.js';

export interface LlmClientOptions {
  /** Any OpenAI-compatible endpoint, e.g. `https://openrouter.ai/api/v1`, `http://127.0.0.1:8000/v1`. */
  baseURL: string;
  /**
   * Where the requests actually go, when not `baseURL`: a recording or replaying proxy in front of
   * it (`@agentbench/cassette`). `baseURL` stays the endpoint recorded and named in errors.
   */
  transportBaseURL?: string;
  apiKey: string;
  model: string;
  /** `chat` (Chat Completions with tool calling, the default) or `responses` (the Responses API). */
  api?: LlmApi;
  retry?: Partial<RetryPolicy>;
  /** Per-try timeout. Default 120 000 ms. */
  timeoutMs?: number;
  /** Prices used when the provider sends no `usage.cost`. */
  pricing?: ModelPricing;
  sampling?: SamplingOptions;
  /** Extra headers on every request (OpenRouter's `HTTP-Referer`, `X-Title`, a gateway's auth). */
  headers?: Record<string, string>;
  /** Waits between tries; replaceable in tests. Must reject when `signal` aborts. */
  sleep?: (milliseconds: number, signal: AbortSignal | undefined) => Promise<void>;
  /** Jitter source in [0, 1). */
  random?: () => number;
}

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;

function abortableSleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return sleep(milliseconds, undefined, signal === undefined ? undefined : { signal });
}

/**
 * A model client on the `openai` package for any OpenAI-compatible base URL. The package's
 * own retries are off: this client retries rate limits, 5xx, timeouts and dropped connections
 * itself (exponential backoff with jitter, honouring Retry-After), so the policy is ours and
 * visible in events.
 */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const baseURL = checkNonEmpty(options.baseURL, 'baseURL');
  const apiKey = checkNonEmpty(options.apiKey, 'apiKey');
  const model = checkNonEmpty(options.model, 'model');
  const api = options.api ?? 'chat';
  if (api !== 'chat' && api !== 'responses') {
    throw new ConfigurationError('api', `expected "chat" or "responses", found ${JSON.stringify(api)}`);
  }
  for (const [field, url] of [['baseURL', baseURL], ['transportBaseURL', options.transportBaseURL ?? baseURL]] as const) {
    try {
      new URL(url);
    } catch {
      throw new ConfigurationError(field, `expected an http(s) URL such as https://openrouter.ai/api/v1, found ${JSON.stringify(url)}`);
    }
  }
  const retry = resolveRetryPolicy(options.retry);
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new ConfigurationError('timeoutMs', `expected a positive number of milliseconds, found ${JSON.stringify(timeoutMs)}`);
  }
  const pricing = checkPricing(options.pricing);
  const sampling = options.sampling ?? {};
  const wait = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  // Made on the first call: the `openai` package is imported only by a process that calls a model.
  let client: OpenAI | undefined;
  const openAiClient = async (): Promise<OpenAI> =>
    (client ??= new (await loadOpenAi()).default({
      apiKey,
      baseURL: options.transportBaseURL ?? baseURL,
      maxRetries: 0,
      timeout: timeoutMs,
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
    }));
  const errorContext = { baseURL, model, timeoutMs };

  async function tryOnce(request: LlmRequest, attempt: number, startedAt: number): Promise<LlmResponse> {
    const body = api === 'chat' ? chatRequestBody(model, request, sampling) : responsesRequestBody(model, request, sampling);
    request.observer?.onRequest?.({ attempt, model, api, body });
    const requestOptions = request.signal === undefined ? {} : { signal: request.signal };
    let data: unknown;
    let requestId: string | null;
    try {
      // The body is built and checked by us; the SDK's overloads would only restate it.
      const openai = await openAiClient();
      const call =
        api === 'chat'
          ? openai.chat.completions.create(body as never, requestOptions)
          : openai.responses.create(body as never, requestOptions);
      ({ data, request_id: requestId } = await (call as unknown as { withResponse(): Promise<{ data: unknown; request_id: string | null }> }).withResponse());
    } catch (error) {
      throw normalizeLlmError(error, errorContext);
    }
    const read = api === 'chat' ? readChatCompletion(data, pricing) : readResponse(data, pricing);
    if (typeof read === 'string') {
      throw new LlmError(`${baseURL} (model ${model}) sent an answer we cannot use: ${read}`, { kind: 'malformed_response', isRetryable: true });
    }
    const response: LlmResponse = { ...read, model: read.model || model, attempts: attempt, durationMs: Date.now() - startedAt };
    if (requestId !== null && requestId !== undefined) response.requestId = requestId;
    request.observer?.onResponse?.({ attempt, model, api, body: data, response });
    return response;
  }

  return {
    model,
    api,
    baseURL,
    async complete(request: LlmRequest): Promise<LlmResponse> {
      const startedAt = Date.now();
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await tryOnce(request, attempt, startedAt);
        } catch (thrown) {
          const error = normalizeLlmError(thrown, errorContext);
          const aborted = request.signal?.aborted === true;
          const retriesLeft = retry.maxRetries - (attempt - 1);
          let delayMs: number | undefined;
          let finalError = error;
          if (!aborted && error.isRetryable && retriesLeft > 0) {
            if (error.retryAfterMs !== undefined && error.retryAfterMs > retry.maxDelayMs) {
              finalError = new LlmError(
                `${error.message}; the provider asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s, more than retry.maxDelayMs (${retry.maxDelayMs} ms)`,
                { kind: error.kind, isRetryable: false, retryAfterMs: error.retryAfterMs, cause: error, ...(error.status === undefined ? {} : { status: error.status }) },
              );
            } else {
              delayMs = error.retryAfterMs ?? backoffDelayMs(retry, attempt, random);
            }
          }
          const abortedError = aborted && error.kind !== 'aborted'
            ? new LlmError(`request to ${baseURL} (model ${model}) was aborted`, { kind: 'aborted', isRetryable: false, cause: error })
            : undefined;
          request.observer?.onError?.({ attempt, model, api, error: abortedError ?? finalError, willRetry: delayMs !== undefined, ...(delayMs === undefined ? {} : { delayMs }) });
          if (delayMs === undefined) throw (abortedError ?? finalError).withAttempts(attempt);
          try {
            await wait(delayMs, request.signal);
          } catch {
            throw new LlmError(`request to ${baseURL} (model ${model}) was aborted while waiting to retry`, { kind: 'aborted', isRetryable: false, attempts: attempt });
          }
        }
      }
    },
  };
}

function checkNonEmpty(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigurationError(field, `expected a non-empty string, found ${JSON.stringify(value)}`);
  }
  return value;
}
