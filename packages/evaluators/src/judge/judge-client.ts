import type * as OpenAiModule from 'openai';
import type OpenAI from 'openai';
import type { APIError } from 'openai';
import { JudgeError } from './judge-error.js';
import { JudgeCache, judgeCacheKey, type StructuredOutputTransport, type TokenUsage } from './judge-cache.js';
import { judgeModelFor, resolveJudgeConfiguration, type JudgeClientOptions, type JudgeConfiguration } from './judge-configuration.js';
import { jsonSchemaViolations, prepareStrictSchema, type JsonSchemaObject } from './json-schema-subset.js';

/** One structured question to the judge. */
export interface JudgeRequest {
  /** Names the response format and the tool, e.g. `judgment` (letters, digits, `_`). */
  name: string;
  system: string;
  /** The whole user message: question and the material to judge. */
  prompt: string;
  /** The answer must match it (the JSON Schema subset of `json-schema-subset.ts`). */
  schema: JsonSchemaObject;
  /** An explicit model; else `modelType`; else the configured judge model. */
  model?: string;
  modelType?: string;
  /** Default: the client's temperature (0). */
  temperature?: number;
  /** Sample number (default 0): separate samples of the same question are cached separately. */
  sample?: number;
}

export interface JudgeAnswer {
  /** The validated answer. */
  value: Record<string, unknown>;
  model: string;
  transport: StructuredOutputTransport;
  isCached: boolean;
  /** Tokens spent by this call, from the API's `usage` (zero for a cache hit). */
  usage: TokenUsage;
  /** Why the cache was not written, when writing failed (the answer is still good). */
  cacheWarning?: string;
}

export interface JudgeClient {
  readonly configuration: JudgeConfiguration;
  ask(request: JudgeRequest, options?: { signal?: AbortSignal }): Promise<JudgeAnswer>;
}

const ZERO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

// Models known to refuse the json_schema response format (per base URL), so each run pays the 400 once.
const toolOnlyModels = new Set<string>();

function addUsage(left: TokenUsage, right: TokenUsage): TokenUsage {
  return {
    promptTokens: left.promptTokens + right.promptTokens,
    completionTokens: left.completionTokens + right.completionTokens,
    totalTokens: left.totalTokens + right.totalTokens,
  };
}

function usageOf(completion: OpenAI.Chat.Completions.ChatCompletion): TokenUsage {
  const usage = completion.usage;
  if (usage === undefined || usage === null) return ZERO_USAGE;
  return {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    totalTokens: usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0),
  };
}

// The `openai` package (~240 modules, ~0.5 s of CPU to import) is loaded on a judge's first request, not
// when this package is: most processes that load the evaluators never ask a judge.
let openAi: typeof OpenAiModule | undefined;

async function loadOpenAi(): Promise<typeof OpenAiModule> {
  openAi ??= await import('openai');
  return openAi;
}

/** `error` is an instance of the package's `name` class; before the package is loaded none can exist. */
function isOpenAiError<Name extends 'APIError' | 'APIUserAbortError' | 'APIConnectionTimeoutError'>(error: unknown, name: Name): error is InstanceType<(typeof OpenAiModule)[Name]> {
  return openAi !== undefined && error instanceof openAi[name];
}

function errorText(error: APIError): string {
  let body = '';
  try {
    body = JSON.stringify(error.error ?? '');
  } catch {
    body = '';
  }
  return `${error.message} ${body}`;
}

/** A 400/422 that complains about structured output: the model or server does not support the JSON schema format. */
function isStructuredOutputRefusal(error: unknown): boolean {
  if (!isOpenAiError(error, 'APIError') || (error.status !== 400 && error.status !== 422)) return false;
  return /response_format|json_schema|structured output/i.test(errorText(error));
}

function shorten(text: string, length = 200): string {
  return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

function requestFailure(error: unknown, configuration: JudgeConfiguration, model: string): JudgeError {
  const where = `judge request to ${configuration.baseURL} (model ${model})`;
  if (isOpenAiError(error, 'APIUserAbortError')) return new JudgeError('request_failed', `${where} was aborted`, { cause: error });
  if (isOpenAiError(error, 'APIConnectionTimeoutError')) {
    return new JudgeError('request_failed', `${where} timed out after ${configuration.timeoutMs} ms`, { cause: error });
  }
  if (isOpenAiError(error, 'APIError')) {
    const status = error.status === undefined ? 'no response' : `HTTP ${error.status}`;
    return new JudgeError('request_failed', `${where} failed: ${status}: ${shorten(error.message)}`, { cause: error });
  }
  return new JudgeError('request_failed', `${where} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

function parseAnswer(text: string, schema: JsonSchemaObject, origin: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JudgeError('malformed_answer', `the judge's ${origin} is not valid JSON (${error instanceof Error ? error.message : String(error)}): ${shorten(JSON.stringify(text), 120)}`, {
      answer: text,
    });
  }
  const violations = jsonSchemaViolations(schema, value);
  if (violations.length > 0) {
    throw new JudgeError('invalid_answer', `the judge's ${origin} does not match the schema: ${violations.join('; ')}`, { answer: text });
  }
  return value as Record<string, unknown>;
}

function toolName(request: JudgeRequest): string {
  return `submit_${request.name}`;
}

/** Extracts and validates the structured answer of a completion. */
function answerOf(completion: OpenAI.Chat.Completions.ChatCompletion, request: JudgeRequest, schema: JsonSchemaObject, transport: StructuredOutputTransport): Record<string, unknown> {
  const choice = completion.choices?.[0];
  if (choice === undefined) throw new JudgeError('malformed_answer', 'the judge answered with no choices');
  if (choice.finish_reason === 'length') {
    throw new JudgeError('malformed_answer', 'the judge answer was cut off at the token limit (finish_reason "length")', { answer: choice.message.content ?? '' });
  }
  const message = choice.message;
  if (typeof message.refusal === 'string' && message.refusal !== '') {
    throw new JudgeError('malformed_answer', `the judge refused to answer: ${shorten(message.refusal)}`, { answer: message.refusal });
  }
  if (transport === 'json_schema') {
    if (typeof message.content !== 'string' || message.content.trim() === '') {
      throw new JudgeError('malformed_answer', 'the judge answered with no content (expected a JSON object)');
    }
    return parseAnswer(message.content, schema, 'answer');
  }
  const call = message.tool_calls?.find((toolCall) => toolCall.type === 'function' && toolCall.function.name === toolName(request));
  if (call === undefined || call.type !== 'function') {
    const text = typeof message.content === 'string' ? message.content : '';
    throw new JudgeError('malformed_answer', `the judge did not call the ${toolName(request)} tool${text === '' ? '' : ` (it wrote: ${shorten(JSON.stringify(text), 120)})`}`, { answer: text });
  }
  return parseAnswer(call.function.arguments, schema, `${toolName(request)} arguments`);
}

/** The chat completion request of a judge question: the JSON schema response format, or one forced tool call. */
function requestBody(
  request: JudgeRequest,
  model: string,
  temperature: number,
  prepared: { schema: JsonSchemaObject; strict: boolean },
  transport: StructuredOutputTransport,
): OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'system', content: request.system },
    { role: 'user', content: request.prompt },
  ];
  const base = { model, temperature, messages, stream: false as const };
  return transport === 'json_schema'
    ? { ...base, response_format: { type: 'json_schema', json_schema: { name: request.name, schema: prepared.schema, strict: prepared.strict } } }
    : {
        ...base,
        tools: [
          {
            type: 'function',
            function: { name: toolName(request), description: 'Submit your judgment. Call this exactly once.', parameters: prepared.schema, strict: prepared.strict },
          },
        ],
        tool_choice: { type: 'function', function: { name: toolName(request) } },
      };
}

/** A completion whose answer is a cached one, in the shape `answerOf` reads for the transport. */
function completionOfCachedAnswer(request: JudgeRequest, value: Record<string, unknown>, model: string, transport: StructuredOutputTransport, key: string): OpenAI.Chat.Completions.ChatCompletion {
  const text = JSON.stringify(value);
  const message: OpenAI.Chat.Completions.ChatCompletionMessage =
    transport === 'json_schema'
      ? { role: 'assistant', content: text, refusal: null }
      : { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: `call_${key.slice(0, 12)}`, type: 'function', function: { name: toolName(request), arguments: text } }] };
  return {
    id: `judge-cache-${key.slice(0, 16)}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, finish_reason: transport === 'json_schema' ? 'stop' : 'tool_calls', logprobs: null, message }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** A judge client over any OpenAI-compatible chat completions API, with structured output, validation and a disk cache. */
export function createJudgeClient(options: JudgeClientOptions = {}): JudgeClient {
  const configuration = resolveJudgeConfiguration(options);
  // Made on the first request that the cache does not answer.
  let client: OpenAI | undefined;
  const openAiClient = async (): Promise<OpenAI> =>
    (client ??= new (await loadOpenAi()).default({
      baseURL: options.transportBaseURL ?? configuration.baseURL,
      apiKey: configuration.apiKey,
      maxRetries: configuration.maxRetries,
      timeout: configuration.timeoutMs,
    }));
  const cache = configuration.isCacheEnabled ? new JudgeCache(configuration.cacheDir) : undefined;

  const complete = async (
    request: JudgeRequest,
    model: string,
    temperature: number,
    prepared: { schema: JsonSchemaObject; strict: boolean },
    transport: StructuredOutputTransport,
    signal: AbortSignal | undefined,
  ): Promise<OpenAI.Chat.Completions.ChatCompletion> => (await openAiClient()).chat.completions.create(requestBody(request, model, temperature, prepared, transport), signal === undefined ? {} : { signal });

  const ask = async (request: JudgeRequest, askOptions: { signal?: AbortSignal } = {}): Promise<JudgeAnswer> => {
    const model = judgeModelFor(configuration, request);
    const temperature = request.temperature ?? configuration.temperature;
    const prepared = prepareStrictSchema(request.schema);
    const key = judgeCacheKey({
      baseURL: configuration.baseURL,
      model,
      temperature,
      system: request.system,
      prompt: request.prompt,
      schema: prepared.schema,
      sample: request.sample ?? 0,
    });
    const modelKey = `${configuration.baseURL} ${model}`;
    let transport: StructuredOutputTransport =
      configuration.structuredOutput === 'tool' || (configuration.structuredOutput === 'auto' && toolOnlyModels.has(modelKey)) ? 'tool' : 'json_schema';
    const useCache = cache !== undefined && !configuration.isCacheBypassed;
    if (useCache) {
      const entry = await cache.read(key);
      // A cached answer is checked again: the schema it was validated against may have been edited since.
      if (entry !== undefined && jsonSchemaViolations(prepared.schema, entry.value).length === 0) {
        // Shown as the request a miss would send now (this transport), so a replay without the cache asks the same.
        options.onCachedAnswer?.({
          endpoint: '/chat/completions',
          body: requestBody(request, model, temperature, prepared, transport),
          responseBody: JSON.stringify(completionOfCachedAnswer(request, entry.value, entry.model, transport, key)),
        });
        return { value: entry.value, model: entry.model, transport: entry.transport, isCached: true, usage: ZERO_USAGE };
      }
    }

    let usage = ZERO_USAGE;
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await complete(request, model, temperature, prepared, transport, askOptions.signal);
    } catch (error) {
      if (!(transport === 'json_schema' && configuration.structuredOutput === 'auto' && isStructuredOutputRefusal(error))) {
        throw requestFailure(error, configuration, model);
      }
      toolOnlyModels.add(modelKey);
      transport = 'tool';
      try {
        completion = await complete(request, model, temperature, prepared, transport, askOptions.signal);
      } catch (fallbackError) {
        throw requestFailure(fallbackError, configuration, model);
      }
    }
    usage = addUsage(usage, usageOf(completion));
    let value: Record<string, unknown>;
    try {
      value = answerOf(completion, request, prepared.schema, transport);
    } catch (error) {
      // The tokens were spent even though the answer is unusable; keep them on the error for the runner's count.
      if (JudgeError.isInstance(error)) error.usage = usage;
      throw error;
    }
    const answer: JudgeAnswer = { value, model: completion.model || model, transport, isCached: false, usage };
    if (useCache) {
      try {
        await cache.write({ version: 1, key, model: answer.model, transport, createdAt: new Date().toISOString(), value, usage });
      } catch (error) {
        answer.cacheWarning = `could not write the judge cache in ${configuration.cacheDir}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    return answer;
  };

  return { configuration, ask };
}
