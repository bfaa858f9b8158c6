import { startFakeLlmServer, type FakeLlmServer, type FakeScript } from '@agentbench/fake-llm-server';
import { afterEach, describe, expect, it } from 'vitest';
import { LlmError } from '../errors/llm-error.js';
import { createLlmClient, type LlmClientOptions } from './llm-client.js';
import type { LlmCallObserver } from '../contract/llm-types.js';

let server: FakeLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: FakeScript, options: Partial<LlmClientOptions> = {}) {
  server = await startFakeLlmServer({ script });
  const client = createLlmClient({
    baseURL: server.url,
    apiKey: 'test-key',
    model: 'fake-model',
    retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 5000 },
    ...options,
  });
  return { server, client };
}

const question = [{ role: 'user' as const, content: 'Where is the bug?' }];

describe('createLlmClient (chat completions, real HTTP to the fake server)', () => {
  it('sends to transportBaseURL (a recording proxy) while baseURL stays the endpoint it reports', async () => {
    server = await startFakeLlmServer({ script: ['through the proxy'] });
    const client = createLlmClient({ baseURL: 'https://openrouter.ai/api/v1', transportBaseURL: server.url, apiKey: 'test-key', model: 'fake-model' });
    expect((await client.complete({ messages: question })).text).toBe('through the proxy');
    expect(client.baseURL).toBe('https://openrouter.ai/api/v1');
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer test-key');
    expect(() => createLlmClient({ baseURL: server?.url ?? '', transportBaseURL: 'not a url', apiKey: 'k', model: 'm' })).toThrow(/transportBaseURL: expected an http\(s\) URL/);
  });

  it('returns the text, the model and the token counts from the reply usage', async () => {
    const { client, server } = await start([{ text: 'In median().', usage: { prompt_tokens: 1234, completion_tokens: 56 } }]);
    const response = await client.complete({ messages: question });
    expect(response.text).toBe('In median().');
    expect(response.model).toBe('fake-model');
    expect(response.usage).toMatchObject({ inputTokens: 1234, outputTokens: 56, totalTokens: 1290, costSource: 'unknown' });
    expect(response.usage.costUsd).toBeUndefined();
    expect(response.attempts).toBe(1);
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer test-key');
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('sends tools and returns every tool call of one reply with its raw arguments', async () => {
    const { client, server } = await start([
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'src/a.py' }, id: 'call_1' },
          { name: 'run', arguments: { command: 'pytest -q' }, id: 'call_2' },
        ],
      },
    ]);
    const response = await client.complete({
      messages: question,
      tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
    });
    expect(response.toolCalls).toEqual([
      { id: 'call_1', name: 'read_file', arguments: '{"path":"src/a.py"}' },
      { id: 'call_2', name: 'run', arguments: '{"command":"pytest -q"}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body['tools']).toEqual([
      { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
    ]);
  });

  it('maps assistant tool calls and tool results to chat messages', async () => {
    const { client, server } = await start(['ok']);
    await client.complete({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'run', arguments: '{bad' }] },
        { role: 'tool', toolCallId: 'c1', content: 'Error: not JSON' },
      ],
    });
    const body = server.requests[0]?.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run', arguments: '{bad' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Error: not JSON' },
    ]);
  });

  it('takes the cost from usage.cost when the provider sends it, else from the configured prices', async () => {
    const withCost = {
      status: 200,
      body: {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'fake-model',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, cost: 0.0042 },
      },
    };
    const { client } = await start([withCost, { text: 'priced', usage: { prompt_tokens: 2_000_000, completion_tokens: 1_000_000 } }], {
      pricing: { inputUsdPerMillionTokens: 3, outputUsdPerMillionTokens: 15 },
    });
    const first = await client.complete({ messages: question });
    expect(first.usage).toMatchObject({ inputTokens: 10, outputTokens: 2, costUsd: 0.0042, costSource: 'provider' });
    const second = await client.complete({ messages: question });
    expect(second.usage).toMatchObject({ costUsd: 21, costSource: 'pricing' });
  });

  it('retries a 429 after the Retry-After the server asked for, then succeeds', async () => {
    const { client, server } = await start([{ status: 429, headers: { 'Retry-After': '1' } }, 'after the wait']);
    const failures: { willRetry: boolean; delayMs?: number }[] = [];
    const observer: LlmCallObserver = { onError: ({ willRetry, delayMs }) => failures.push({ willRetry, ...(delayMs === undefined ? {} : { delayMs }) }) };
    const response = await client.complete({ messages: question, observer });
    expect(response.text).toBe('after the wait');
    expect(response.attempts).toBe(2);
    expect(failures).toEqual([{ willRetry: true, delayMs: 1000 }]);
    const [limited, retried] = server.requests;
    expect([limited?.outcome, retried?.outcome]).toEqual(['status', 'replied']);
    // The bound is the Retry-After itself (1 s); our own backoff here would be at most 5 ms.
    expect((retried?.receivedAt ?? 0) - (limited?.receivedAt ?? 0)).toBeGreaterThanOrEqual(1000 - 15);
  });

  it('honours retry-after-ms and a Retry-After HTTP date', async () => {
    const waits: number[] = [];
    const sleep = async (milliseconds: number): Promise<void> => {
      waits.push(milliseconds);
    };
    const date = new Date(Date.now() + 30_000).toUTCString();
    const { client } = await start(
      [{ status: 429, headers: { 'retry-after-ms': '250' } }, { status: 503, headers: { 'Retry-After': date } }, 'done'],
      { sleep, retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 60_000 } },
    );
    const response = await client.complete({ messages: question });
    expect(response.text).toBe('done');
    expect(waits[0]).toBe(250);
    // An HTTP date is turned into the time left until it (a second of rounding in the header).
    expect(waits[1]).toBeGreaterThan(28_000);
    expect(waits[1]).toBeLessThanOrEqual(30_000);
  });

  it('gives up after the retry budget on repeated 500s with an LLM_ERROR', async () => {
    const { client, server } = await start(() => ({ status: 500 }), { retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 } });
    const error = await client.complete({ messages: question }).catch((thrown: unknown) => thrown);
    expect(LlmError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'server_error', status: 500, attempts: 3, failureReason: 'LLM_ERROR', errorKind: 'llm' });
    expect((error as Error).message).toContain('after 3 tries');
    expect(server.requests).toHaveLength(3);
  });

  it('uses exponential backoff between 5xx retries when no Retry-After is sent', async () => {
    const waits: number[] = [];
    const { client } = await start([{ status: 502 }, { status: 503 }, { status: 500 }, 'ok'], {
      retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 10_000 },
      sleep: async (milliseconds) => {
        waits.push(milliseconds);
      },
      random: () => 0.999,
    });
    await client.complete({ messages: question });
    expect(waits).toEqual([100, 200, 400]);
  });

  it('does not retry an authentication error, and says which key to check', async () => {
    const { client, server } = await start([{ status: 401 }, 'never']);
    const error = await client.complete({ messages: question }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ kind: 'auth', status: 401, isRetryable: false });
    expect((error as Error).message).toMatch(/rejected the API key/);
    expect(server.requests).toHaveLength(1);
  });

  it('stops instead of waiting when Retry-After is longer than the longest allowed wait', async () => {
    const { client, server } = await start([{ status: 429, headers: { 'Retry-After': '3600' } }, 'never'], { retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5000 } });
    const error = await client.complete({ messages: question }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ kind: 'rate_limit' });
    expect((error as Error).message).toMatch(/asked to wait 3600 s, more than retry.maxDelayMs/);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a truncated body and a dropped connection', async () => {
    const { client } = await start([{ text: 'a long enough answer to cut', fault: 'truncated_body' }, { text: 'x', fault: 'drop_connection' }, 'whole']);
    const kinds: string[] = [];
    const response = await client.complete({ messages: question, observer: { onError: ({ error }) => kinds.push(error.kind) } });
    expect(response.text).toBe('whole');
    expect(kinds).toEqual(['malformed_response', 'network']);
  });

  it('reports an abort as an interruption, not an LLM error', async () => {
    const { client } = await start([{ text: 'slow', delayMs: 10_000 }]);
    const controller = new AbortController();
    const pending = client.complete({ messages: question, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await pending.catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ kind: 'aborted', failureReason: 'INTERRUPTED', errorKind: 'interrupt' });
  });

  it('rejects bad options with the field named', () => {
    expect(() => createLlmClient({ baseURL: 'not a url', apiKey: 'k', model: 'm' })).toThrow(/baseURL: expected an http\(s\) URL/);
    expect(() => createLlmClient({ baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' })).toThrow(/apiKey: expected a non-empty string/);
    expect(() => createLlmClient({ baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k', model: 'm', retry: { maxRetries: -1 } })).toThrow(/retry.maxRetries/);
  });
});

describe('createLlmClient (Responses API)', () => {
  it('sends instructions, input items and function tools, and reads text, calls and usage back', async () => {
    const { client, server } = await start([{ text: 'looking', toolCalls: [{ name: 'read_file', arguments: { path: 'a.py' }, id: 'call_9' }], usage: { prompt_tokens: 40, completion_tokens: 7 } }], {
      api: 'responses',
    });
    const response = await client.complete({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c0', name: 'list_files', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c0', content: 'a.py' },
      ],
      tools: [{ name: 'read_file', description: 'Read', parameters: { type: 'object', properties: {} } }],
    });
    expect(server.requests[0]?.path).toBe('/v1/responses');
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body['instructions']).toBe('sys');
    expect(body['input']).toEqual([
      { type: 'message', role: 'user', content: 'go' },
      { type: 'function_call', call_id: 'c0', name: 'list_files', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c0', output: 'a.py' },
    ]);
    expect(body['tools']).toEqual([{ type: 'function', name: 'read_file', description: 'Read', parameters: { type: 'object', properties: {} }, strict: false }]);
    expect(response.text).toBe('looking');
    expect(response.toolCalls).toEqual([{ id: 'call_9', name: 'read_file', arguments: '{"path":"a.py"}' }]);
    expect(response.usage).toMatchObject({ inputTokens: 40, outputTokens: 7 });
  });
});
