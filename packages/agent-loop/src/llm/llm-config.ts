import { ConfigurationError } from '@agentbench/schemas';
import type { LlmClientOptions } from './llm-client.js';
import type { LlmApi } from '../contract/llm-types.js';
import type { ModelPricing } from './llm-usage.js';

/** OpenRouter's OpenAI-compatible endpoint: the default base URL of the agent's and the scenario runner's LLM clients (their one home). */
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
export const DEFAULT_MODEL = 'anthropic/claude-3.5-sonnet';
/** The variable the harness sets to route the LLM agent's requests through its model proxy. */
export const LLM_PROXY_URL_VARIABLE = 'AGENTBENCH_LLM_PROXY_URL';

export interface LlmConfigOverrides {
  /** `--model`: wins over `MODEL_NAME`. */
  model?: string;
  api?: LlmApi;
  baseURL?: string;
  apiKey?: string;
  pricing?: ModelPricing;
  timeoutMs?: number;
  maxRetries?: number;
}

export interface ResolvedLlmConfig {
  client: LlmClientOptions;
  /** `openrouter` or `openai-compatible`, for the AttemptRecord. */
  provider: string;
  /** Where each setting came from, for `--verbose` and error messages. */
  sources: { baseURL: string; apiKey: string; model: string };
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '127.0.0.1' || host === '::1' || host === '[::1]' || host.endsWith('.localhost');
  } catch {
    return false;
  }
}

function numberVariable(environment: NodeJS.ProcessEnv, name: string, isInteger: boolean, minimum: number): number | undefined {
  const raw = environment[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < minimum || (isInteger && !Number.isInteger(value))) {
    throw new ConfigurationError(name, `expected ${isInteger ? 'a whole number' : 'a number'} ≥ ${minimum}, found ${JSON.stringify(raw)}`);
  }
  return value;
}

/** `AGENTBENCH_LLM_PRICING="3,15"`: USD per million input and output tokens. */
function pricingVariable(environment: NodeJS.ProcessEnv): ModelPricing | undefined {
  const raw = environment['AGENTBENCH_LLM_PRICING'];
  if (raw === undefined || raw.trim() === '') return undefined;
  const parts = raw.split(',').map((part) => Number(part.trim()));
  if (parts.length !== 2 || parts.some((part) => !Number.isFinite(part) || part < 0)) {
    throw new ConfigurationError('AGENTBENCH_LLM_PRICING', `expected "INPUT,OUTPUT" in USD per million tokens (e.g. "3,15"), found ${JSON.stringify(raw)}`);
  }
  return { inputUsdPerMillionTokens: parts[0] as number, outputUsdPerMillionTokens: parts[1] as number };
}

/**
 * Works out where the LLM agent's requests go, from options and the environment:
 * - `OPENAI_BASE_URL` (+ `OPENAI_API_KEY`) for any OpenAI-compatible server (vLLM, Ollama,
 *   llama.cpp, OpenAI); a loopback server needs no key;
 * - otherwise OpenRouter with `OPENROUTER_API_KEY`;
 * - model: `--model`, else `MODEL_NAME`, else anthropic/claude-3.5-sonnet;
 * - `AGENTBENCH_LLM_API` (chat|responses), `AGENTBENCH_LLM_TIMEOUT_SEC`, `AGENTBENCH_LLM_MAX_RETRIES`, `AGENTBENCH_LLM_PRICING`;
 * - `AGENTBENCH_LLM_PROXY_URL`: send the requests through this base URL instead (the harness's
 *   recording or replaying proxy); the endpoint, provider and key are resolved as without it.
 * A missing key is a ConfigurationError naming the variable, raised before any step runs.
 */
export function resolveLlmConfig(overrides: LlmConfigOverrides = {}, environment: NodeJS.ProcessEnv = process.env): ResolvedLlmConfig {
  const nonEmpty = (name: string): string | undefined => {
    const value = environment[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  let baseURL: string;
  let baseSource: string;
  let apiKey: string | undefined;
  let keySource: string;
  let provider: string;
  if (overrides.baseURL !== undefined) {
    baseURL = overrides.baseURL;
    baseSource = 'option baseURL';
    apiKey = overrides.apiKey ?? nonEmpty('OPENAI_API_KEY');
    keySource = overrides.apiKey === undefined ? 'OPENAI_API_KEY' : 'option apiKey';
    provider = baseURL.startsWith(OPENROUTER_BASE_URL) ? 'openrouter' : 'openai-compatible';
  } else if (nonEmpty('OPENAI_BASE_URL') !== undefined) {
    baseURL = nonEmpty('OPENAI_BASE_URL') as string;
    baseSource = 'OPENAI_BASE_URL';
    apiKey = overrides.apiKey ?? nonEmpty('OPENAI_API_KEY');
    keySource = overrides.apiKey === undefined ? 'OPENAI_API_KEY' : 'option apiKey';
    provider = baseURL.startsWith(OPENROUTER_BASE_URL) ? 'openrouter' : 'openai-compatible';
  } else {
    baseURL = OPENROUTER_BASE_URL;
    baseSource = 'default (OpenRouter)';
    apiKey = overrides.apiKey ?? nonEmpty('OPENROUTER_API_KEY');
    keySource = overrides.apiKey === undefined ? 'OPENROUTER_API_KEY' : 'option apiKey';
    provider = 'openrouter';
  }
  if (apiKey === undefined) {
    if (provider !== 'openrouter' && isLoopback(baseURL)) {
      // Local servers (vLLM, Ollama, llama.cpp) usually ignore the key, but the client needs one.
      apiKey = 'not-needed';
      keySource = 'none (loopback server)';
    } else if (provider === 'openrouter' && baseSource.startsWith('default')) {
      throw new ConfigurationError(
        'OPENROUTER_API_KEY',
        'not set: the llm agent calls OpenRouter by default. Set OPENROUTER_API_KEY, or set OPENAI_BASE_URL (and OPENAI_API_KEY) to use another OpenAI-compatible server',
      );
    } else {
      throw new ConfigurationError('OPENAI_API_KEY', `not set: ${baseURL} (from ${baseSource}) needs an API key`);
    }
  }
  const model = overrides.model ?? nonEmpty('MODEL_NAME') ?? DEFAULT_MODEL;
  const modelSource = overrides.model !== undefined ? '--model' : nonEmpty('MODEL_NAME') !== undefined ? 'MODEL_NAME' : 'default';
  const apiText = overrides.api ?? nonEmpty('AGENTBENCH_LLM_API') ?? 'chat';
  if (apiText !== 'chat' && apiText !== 'responses') {
    throw new ConfigurationError(overrides.api !== undefined ? 'api' : 'AGENTBENCH_LLM_API', `expected "chat" or "responses", found ${JSON.stringify(apiText)}`);
  }
  const client: LlmClientOptions = { baseURL, apiKey, model, api: apiText };
  const proxyURL = nonEmpty(LLM_PROXY_URL_VARIABLE);
  if (proxyURL !== undefined) client.transportBaseURL = proxyURL;
  const timeoutSec = numberVariable(environment, 'AGENTBENCH_LLM_TIMEOUT_SEC', false, 1);
  const timeoutMs = overrides.timeoutMs ?? (timeoutSec === undefined ? undefined : timeoutSec * 1000);
  if (timeoutMs !== undefined) client.timeoutMs = timeoutMs;
  const maxRetries = overrides.maxRetries ?? numberVariable(environment, 'AGENTBENCH_LLM_MAX_RETRIES', true, 0);
  if (maxRetries !== undefined) client.retry = { maxRetries };
  const pricing = overrides.pricing ?? pricingVariable(environment);
  if (pricing !== undefined) client.pricing = pricing;
  if (provider === 'openrouter') client.headers = { 'HTTP-Referer': 'https://github.com/agentbench', 'X-Title': 'AgentBench' };
  return { client, provider, sources: { baseURL: baseSource, apiKey: keySource, model: modelSource } };
}
