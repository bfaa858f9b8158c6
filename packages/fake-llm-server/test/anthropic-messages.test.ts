import Anthropic, { InternalServerError, RateLimitError } from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply } from '../src/index.js';

let server: FakeLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The Anthropic client takes the origin: it adds `/v1/messages` itself. */
async function start(script: FakeReply[]): Promise<{ server: FakeLlmServer; client: Anthropic }> {
  server = await startFakeLlmServer({ script });
  return { server, client: new Anthropic({ apiKey: 'test-key', baseURL: server.url.replace(/\/v1$/, ''), maxRetries: 0 }) };
}

const request = { model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Fix the bug' }] };

describe('POST /v1/messages (Anthropic Messages API)', () => {
  it('answers with a text block, the stop reason and usage', async () => {
    const { client } = await start(['The tests pass.']);
    const message = await client.messages.create({ ...request, system: 'Be brief.' });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'The tests pass.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    // input: "Be brief." (2) + "Fix the bug" (3); output: 3 words
    expect(message.usage).toMatchObject({ input_tokens: 5, output_tokens: 3, cache_read_input_tokens: 0 });
  });

  it('answers tool calls as tool_use blocks with their input as an object', async () => {
    const { client } = await start([{ text: 'Reading it.', toolCalls: [{ name: 'Read', arguments: { file_path: 'src/calc.py' }, id: 'toolu_1' }] }]);
    const message = await client.messages.create({ ...request, tools: [{ name: 'Read', input_schema: { type: 'object' } }] });
    expect(message.content).toEqual([
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'src/calc.py' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('streams the events the SDK accumulates into the same message', async () => {
    const { client } = await start([{ text: 'Let me run the tests now.', toolCalls: [{ name: 'Bash', arguments: { command: 'python -m pytest -q tests/' } }] }]);
    const events: RawMessageStreamEvent[] = [];
    const stream = client.messages.stream(request).on('streamEvent', (event) => events.push(event));
    const message = await stream.finalMessage();
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me run the tests now.' },
      { type: 'tool_use', id: 'call_fake_0_0', name: 'Bash', input: { command: 'python -m pytest -q tests/' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    // output: 6 text words + 1 name + 5 argument words
    expect(message.usage).toMatchObject({ input_tokens: 3, output_tokens: 12 });
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(events.filter((event) => event.type === 'content_block_delta' && event.delta.type === 'text_delta').length).toBeGreaterThan(3);
    expect(events.filter((event) => event.type === 'content_block_delta' && event.delta.type === 'input_json_delta').length).toBeGreaterThan(2);
    expect(types.filter((type) => type === 'content_block_start')).toHaveLength(2);
    expect(types.filter((type) => type === 'content_block_stop')).toHaveLength(2);
  });

  it('accepts ?beta=true and fields it does not know (thinking, context_management), as the real API does', async () => {
    const { client, server } = await start(['ok']);
    const body = { ...request, thinking: { type: 'enabled', budget_tokens: 1024 }, context_management: { edits: [] }, metadata: { user_id: 'u' } };
    const message = await client.beta.messages.create(body as Parameters<typeof client.beta.messages.create>[0] & { stream?: false });
    expect(message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests[0]).toMatchObject({ path: '/v1/messages', outcome: 'replied', body: { context_management: { edits: [] } } });
    const raw = await fetch(`${server.url}/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(raw.status).toBe(500); // the script is spent: the route was found, query and all
    expect(server.requests[1]).toMatchObject({ path: '/v1/messages', outcome: 'script_exhausted' });
  });

  it('answers a request the real API would reject with its 400 in Anthropic shape, consuming no reply', async () => {
    const { server } = await start(['kept']);
    const answer = await fetch(`${server.url}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'fake-llm-server: max_tokens: expected an integer >= 1, found undefined' } });
    expect(server.pendingReplyCount).toBe(1);
  });

  it('answers scripted statuses and script exhaustion in Anthropic error shape', async () => {
    const { client } = await start([{ status: 429, headers: { 'retry-after': '3' } }]);
    const limited = await client.messages.create(request).catch((caught: unknown) => caught);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).error).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'fake-llm-server: scripted rate limit (429)' } });
    const exhausted = await client.messages.create(request).catch((caught: unknown) => caught);
    expect(exhausted).toBeInstanceOf(InternalServerError);
    expect((exhausted as InternalServerError).error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect((exhausted as Error).message).toContain('script exhausted');
  });

  it('counts tokens (POST /v1/messages/count_tokens) without consuming a reply', async () => {
    const { client, server } = await start(['kept']);
    const counted = await client.messages.countTokens({ model: 'claude-test', system: 'Be brief.', messages: request.messages });
    expect(counted).toEqual({ input_tokens: 5 });
    expect(server.pendingReplyCount).toBe(1);
    expect(server.requests[0]?.outcome).toBe('counted_tokens');
  });

  it('drops a stream mid-way on a drop_connection fault', async () => {
    const { client, server } = await start([{ text: 'one two three four', fault: 'drop_connection', afterChunks: 3 }]);
    const error = await client.messages.stream(request).finalMessage().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RateLimitError);
    expect(server.requests[0]?.outcome).toBe('fault');
  });
});

describe('one script, three dialects', () => {
  it('serves the same scripted tool call to Chat Completions, Responses and Anthropic Messages clients', async () => {
    const call = { name: 'run', arguments: { command: 'pytest -q' } };
    server = await startFakeLlmServer({ script: [{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }] });
    const { default: OpenAI } = await import('openai');
    const openai = new OpenAI({ apiKey: 'unused', baseURL: server.url, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: 'unused', baseURL: server.url.replace(/\/v1$/, ''), maxRetries: 0 });
    const chat = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }] });
    const responses = await openai.responses.create({ model: 'm', input: 'go', stream: true });
    let responsesCall: unknown;
    for await (const event of responses) if (event.type === 'response.output_item.done') responsesCall = event.item;
    const message = await anthropic.messages.stream(request).finalMessage();
    expect(chat.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'run', arguments: '{"command":"pytest -q"}' } });
    expect(responsesCall).toMatchObject({ type: 'function_call', name: 'run', arguments: '{"command":"pytest -q"}' });
    expect(message.content[0]).toMatchObject({ type: 'tool_use', name: 'run', input: { command: 'pytest -q' } });
    expect(server.requests.map((recorded) => recorded.path)).toEqual(['/v1/chat/completions', '/v1/responses', '/v1/messages']);
  });
});
