import os from 'node:os';
import path from 'node:path';
import { JudgeError } from './judge-error.js';

/** How structured output is requested: the JSON schema response format, a forced tool call, or the first that works. */
export type StructuredOutputMode = 'auto' | 'json_schema' | 'tool';

/** Options of the judge client; every unset field comes from the environment (see `resolveJudgeConfiguration`). */
export interface JudgeClientOptions {
  /** OpenAI-compatible base URL ending in `/v1`. */
  baseURL?: string;
  /** Where the requests actually go, when not `baseURL`: a recording or replaying model proxy in front of it. `baseURL` stays the endpoint named in errors and cache keys. */
  transportBaseURL?: string;
  apiKey?: string;
  /** The judge model when a scenario names neither `model` nor `model_type`, and the base of every model type. */
  model?: string;
  /** Model per `model_type`, overriding the table and the environment. */
  modelTypes?: Partial<Record<JudgeModelType, string>>;
  /** Default `~/.cache/agentbench/judge` (or `AGENTBENCH_JUDGE_CACHE_DIR`). */
  cacheDir?: string;
  /** `--no-cache`: neither read nor write the cache. */
  noCache?: boolean;
  /** Repeat of a run (0 for the first): repeats above 0 bypass the cache so they stay independent samples. */
  repeatIndex?: number;
  /** Default `auto`: JSON schema response format, falling back to a tool call when the server refuses it. */
  structuredOutput?: StructuredOutputMode;
  /** Default 0. */
  temperature?: number;
  /** Default 2: retries of the openai client for 408/429/5xx and connection errors. */
  maxRetries?: number;
  /** Per request; default 60 000 (or `AGENTBENCH_JUDGE_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Where to read variables; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Called on each disk-cache hit with the request this client would have sent and a completion
   * carrying the cached answer, so a recording model proxy can keep it (the scenario runner passes
   * it to `ModelProxy.recordCachedAnswer`): the run's cassette then holds every judge answer.
   */
  onCachedAnswer?: (answer: CachedJudgeExchange) => void;
}

/** A cache hit as the HTTP exchange it stands for. */
export interface CachedJudgeExchange {
  /** Below the base URL: always `/chat/completions`. */
  endpoint: string;
  /** The chat completion request, exactly as the client sends it when the cache misses. */
  body: unknown;
  /** A chat completion (JSON text) whose answer is the cached one, with zero usage: a hit costs nothing. */
  responseBody: string;
}

const SMALL_JUDGE_MODEL = { variable: 'AGENTBENCH_JUDGE_MODEL_SMALL', fallbackModel: 'openai/gpt-4o-mini' } as const;
const LARGE_JUDGE_MODEL = { variable: 'AGENTBENCH_JUDGE_MODEL_LARGE', fallbackModel: 'openai/gpt-4o' } as const;

/**
 * `model_type` of a scenario (ElizaOS names) → the environment variable that overrides its model, and the
 * model used when neither that variable nor a base judge model is set.
 */
export const JUDGE_MODEL_TYPES = {
  TEXT_SMALL: SMALL_JUDGE_MODEL,
  TEXT_LARGE: LARGE_JUDGE_MODEL,
  TEXT_REASONING_SMALL: { variable: 'AGENTBENCH_JUDGE_MODEL_REASONING_SMALL', fallbackModel: 'openai/o4-mini' },
  TEXT_REASONING_LARGE: { variable: 'AGENTBENCH_JUDGE_MODEL_REASONING_LARGE', fallbackModel: 'openai/o3' },
  // Structured output is judged by the text models of the same size.
  OBJECT_SMALL: SMALL_JUDGE_MODEL,
  OBJECT_LARGE: LARGE_JUDGE_MODEL,
} as const;
export type JudgeModelType = keyof typeof JUDGE_MODEL_TYPES;
export const JUDGE_MODEL_TYPE_NAMES = Object.keys(JUDGE_MODEL_TYPES) as JudgeModelType[];

export const DEFAULT_JUDGE_BASE_URL = 'https://openrouter.ai/api/v1';
export const DEFAULT_JUDGE_MODEL = 'openai/gpt-4o-mini';
const DEFAULT_TIMEOUT_MS = 60_000;

/** The judge settings after options and environment are merged. */
export interface JudgeConfiguration {
  baseURL: string;
  apiKey: string;
  /** The base model (`model` option or `AGENTBENCH_JUDGE_MODEL`), undefined when neither is set. */
  model: string | undefined;
  modelTypes: Partial<Record<JudgeModelType, string>>;
  cacheDir: string;
  isCacheEnabled: boolean;
  /** True for repeats above 0: the cache is neither read nor written. */
  isCacheBypassed: boolean;
  structuredOutput: StructuredOutputMode;
  temperature: number;
  maxRetries: number;
  timeoutMs: number;
}

function firstSet(...values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined && value.trim() !== '')?.trim();
}

function isLoopback(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname;
    return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}

function defaultCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  const explicit = firstSet(env.AGENTBENCH_JUDGE_CACHE_DIR);
  if (explicit !== undefined) return path.resolve(explicit);
  const cacheHome = firstSet(env.XDG_CACHE_HOME) ?? path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'agentbench', 'judge');
}

/**
 * Merges options with the environment. Precedence, first set wins:
 * - base URL: `baseURL`, `AGENTBENCH_JUDGE_BASE_URL`, `OPENAI_BASE_URL`, OpenRouter;
 * - key: `apiKey`, `AGENTBENCH_JUDGE_API_KEY`, `OPENROUTER_API_KEY`, `OPENAI_API_KEY` (not needed on loopback);
 * - model: `model`, `AGENTBENCH_JUDGE_MODEL`.
 */
export function resolveJudgeConfiguration(options: JudgeClientOptions = {}): JudgeConfiguration {
  const env = options.env ?? process.env;
  const baseURL = firstSet(options.baseURL, env.AGENTBENCH_JUDGE_BASE_URL, env.OPENAI_BASE_URL) ?? DEFAULT_JUDGE_BASE_URL;
  try {
    new URL(baseURL);
  } catch {
    throw new JudgeError('configuration', `judge base URL ${JSON.stringify(baseURL)} is not a URL (set AGENTBENCH_JUDGE_BASE_URL to e.g. http://127.0.0.1:8080/v1)`);
  }
  const apiKey = firstSet(options.apiKey, env.AGENTBENCH_JUDGE_API_KEY, env.OPENROUTER_API_KEY, env.OPENAI_API_KEY) ?? (isLoopback(baseURL) ? 'not-needed' : undefined);
  if (apiKey === undefined) {
    throw new JudgeError(
      'configuration',
      `no API key for the LLM judge at ${baseURL}: set AGENTBENCH_JUDGE_API_KEY (or OPENROUTER_API_KEY / OPENAI_API_KEY)`,
    );
  }
  const timeoutText = firstSet(env.AGENTBENCH_JUDGE_TIMEOUT_MS);
  const timeoutFromEnv = timeoutText === undefined ? undefined : Number(timeoutText);
  if (timeoutFromEnv !== undefined && !(Number.isFinite(timeoutFromEnv) && timeoutFromEnv > 0)) {
    throw new JudgeError('configuration', `AGENTBENCH_JUDGE_TIMEOUT_MS: expected a positive number of milliseconds, found ${JSON.stringify(timeoutText)}`);
  }
  const modelTypes: Partial<Record<JudgeModelType, string>> = {};
  for (const name of JUDGE_MODEL_TYPE_NAMES) {
    const model = firstSet(options.modelTypes?.[name], env[JUDGE_MODEL_TYPES[name].variable]);
    if (model !== undefined) modelTypes[name] = model;
  }
  const repeatIndex = options.repeatIndex ?? 0;
  return {
    baseURL,
    apiKey,
    model: firstSet(options.model, env.AGENTBENCH_JUDGE_MODEL),
    modelTypes,
    cacheDir: options.cacheDir === undefined ? defaultCacheDir(env) : path.resolve(options.cacheDir),
    isCacheEnabled: options.noCache !== true,
    isCacheBypassed: repeatIndex > 0,
    structuredOutput: options.structuredOutput ?? 'auto',
    temperature: options.temperature ?? 0,
    maxRetries: options.maxRetries ?? 2,
    timeoutMs: options.timeoutMs ?? timeoutFromEnv ?? DEFAULT_TIMEOUT_MS,
  };
}

/**
 * The model for a judge call: an explicit `model` parameter; else the model of `model_type` (option,
 * then its environment variable); else the base judge model; else the table's fallback for the type;
 * else `DEFAULT_JUDGE_MODEL`.
 */
export function judgeModelFor(configuration: JudgeConfiguration, request: { model?: string; modelType?: string }): string {
  if (request.model !== undefined) return request.model;
  if (request.modelType !== undefined) {
    if (!(request.modelType in JUDGE_MODEL_TYPES)) {
      throw new JudgeError('configuration', `unknown model_type ${JSON.stringify(request.modelType)} (known: ${JUDGE_MODEL_TYPE_NAMES.join(', ')})`);
    }
    const type = request.modelType as JudgeModelType;
    return configuration.modelTypes[type] ?? configuration.model ?? JUDGE_MODEL_TYPES[type].fallbackModel;
  }
  return configuration.model ?? DEFAULT_JUDGE_MODEL;
}
