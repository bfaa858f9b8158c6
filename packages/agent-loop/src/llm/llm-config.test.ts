import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, OPENROUTER_BASE_URL, resolveLlmConfig } from './llm-config.js';

describe('resolveLlmConfig', () => {
  it('defaults to OpenRouter with OPENROUTER_API_KEY and MODEL_NAME', () => {
    const config = resolveLlmConfig({}, { OPENROUTER_API_KEY: 'sk-or', MODEL_NAME: 'openai/gpt-4o-mini' });
    expect(config.client).toMatchObject({ baseURL: OPENROUTER_BASE_URL, apiKey: 'sk-or', model: 'openai/gpt-4o-mini', api: 'chat' });
    expect(config.provider).toBe('openrouter');
    expect(resolveLlmConfig({}, { OPENROUTER_API_KEY: 'k' }).client.model).toBe(DEFAULT_MODEL);
  });

  it('uses OPENAI_BASE_URL and OPENAI_API_KEY when set; --model wins over MODEL_NAME', () => {
    const config = resolveLlmConfig({ model: 'qwen' }, { OPENAI_BASE_URL: 'https://gpu.example/v1', OPENAI_API_KEY: 'sk', OPENROUTER_API_KEY: 'ignored', MODEL_NAME: 'other' });
    expect(config.client).toMatchObject({ baseURL: 'https://gpu.example/v1', apiKey: 'sk', model: 'qwen' });
    expect(config.provider).toBe('openai-compatible');
  });

  it('routes through AGENTBENCH_LLM_PROXY_URL without changing the endpoint, provider or key it resolves', () => {
    const config = resolveLlmConfig({}, { OPENROUTER_API_KEY: 'sk-or', AGENTBENCH_LLM_PROXY_URL: 'http://127.0.0.1:4000/role/agent/v1' });
    expect(config.client).toMatchObject({ baseURL: OPENROUTER_BASE_URL, transportBaseURL: 'http://127.0.0.1:4000/role/agent/v1', apiKey: 'sk-or' });
    expect(config.provider).toBe('openrouter');
    expect(resolveLlmConfig({}, { OPENROUTER_API_KEY: 'k' }).client.transportBaseURL).toBeUndefined();
  });

  it('needs no key for a loopback server', () => {
    expect(resolveLlmConfig({}, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).client.apiKey).toBe('not-needed');
  });

  it('names the missing variable', () => {
    expect(() => resolveLlmConfig({}, {})).toThrow(/OPENROUTER_API_KEY: not set/);
    expect(() => resolveLlmConfig({}, { OPENAI_BASE_URL: 'https://gpu.example/v1' })).toThrow(/OPENAI_API_KEY: not set/);
  });

  it('reads the API, timeout, retries and prices, and rejects bad values', () => {
    const config = resolveLlmConfig({}, {
      OPENROUTER_API_KEY: 'k',
      AGENTBENCH_LLM_API: 'responses',
      AGENTBENCH_LLM_TIMEOUT_SEC: '30',
      AGENTBENCH_LLM_MAX_RETRIES: '5',
      AGENTBENCH_LLM_PRICING: '3, 15',
    });
    expect(config.client).toMatchObject({ api: 'responses', timeoutMs: 30_000, retry: { maxRetries: 5 }, pricing: { inputUsdPerMillionTokens: 3, outputUsdPerMillionTokens: 15 } });
    expect(() => resolveLlmConfig({}, { OPENROUTER_API_KEY: 'k', AGENTBENCH_LLM_API: 'completions' })).toThrow(/AGENTBENCH_LLM_API: expected "chat" or "responses"/);
    expect(() => resolveLlmConfig({}, { OPENROUTER_API_KEY: 'k', AGENTBENCH_LLM_PRICING: 'cheap' })).toThrow(/AGENTBENCH_LLM_PRICING/);
  });
});
