import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { startFakeLlmServer, type FakeLlmServer, type FakeScript } from '@agentbench/fake-llm-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../../../test-support/closed-port.js';
import { readCassette } from '../read-cassette.js';
import { checkUpstream } from './check-upstream.js';
import { startModelProxy, type ModelProxy } from './start-model-proxy.js';

function clientOf(baseURL: string, maxRetries = 0): OpenAI {
  return new OpenAI({ apiKey: 'test-key', baseURL, maxRetries });
}

describe('startModelProxy: record then replay against the fake LLM server', () => {
  let folder: string;
  let upstream: FakeLlmServer | undefined;
  const proxies: ModelProxy[] = [];

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'cassette-proxy-'));
  });
  afterEach(async () => {
    for (const proxy of proxies.splice(0)) await proxy.close();
    await upstream?.close();
    upstream = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  async function record(script: FakeScript, drive: (client: OpenAI) => Promise<unknown>, maxRetries = 0) {
    upstream = await startFakeLlmServer({ script });
    const file = path.join(folder, 'cassette.jsonl');
    const proxy = await startModelProxy({ mode: 'record', cassette: file, upstream: upstream.url, run: { taskId: 'toy' } });
    proxies.push(proxy);
    const live = await drive(clientOf(proxy.url, maxRetries));
    await proxy.close();
    // Replays run with the upstream gone: anything not served from the cassette would fail.
    await upstream.close();
    return { file, live, cassette: await readCassette(file) };
  }

  async function replayProxy(file: string, mode: 'replay' | 'replay-then-live' = 'replay', extra: { upstream?: string; cassette?: string } = {}) {
    const proxy = await startModelProxy({ mode, replayFrom: await readCassette(file), run: { taskId: 'toy' }, ...extra });
    proxies.push(proxy);
    return proxy;
  }

  it('replays a chat completion with tool calls, offline, with the answer and usage as recorded', async () => {
    const ask = (client: OpenAI) => client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'Fix the bug' }] });
    const { file, live, cassette } = await record([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.py' } }] }], ask);
    expect(cassette.header).toMatchObject({ task_id: 'toy', repeat_index: 0 });
    expect(cassette.exchanges).toHaveLength(1);
    expect(cassette.exchanges[0]).toMatchObject({ role: 'agent', step: 1, endpoint: '/chat/completions', model: 'fake-model', occurrence: 1, source: 'live', response: { status: 200, is_stream: false } });
    expect(cassette.exchanges[0]?.usage).toMatchObject({ prompt_tokens: 3 });
    expect(JSON.stringify(cassette.exchanges[0]?.request.headers)).not.toContain('test-key');
    const proxy = await replayProxy(file);
    expect(await ask(clientOf(proxy.url))).toEqual(live);
    expect(proxy.divergence).toBeUndefined();
    expect(proxy.unservedExchanges()).toEqual([]);
  });

  it('replays a Responses API call and a chat stream byte for byte', async () => {
    const drive = async (client: OpenAI) => {
      const response = await client.responses.create({ model: 'fake-model', input: 'Say hello' });
      const stream = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'Stream it' }], stream: true, stream_options: { include_usage: true } });
      const chunks: unknown[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      return { text: response.output_text, chunks };
    };
    const { file, live, cassette } = await record(['Hello there.', { toolCalls: [{ name: 'run', arguments: { command: 'pytest -q' } }] }], drive);
    expect(cassette.exchanges.map((exchange) => [exchange.endpoint, exchange.response.is_stream])).toEqual([['/responses', false], ['/chat/completions', true]]);
    const recordedStream = cassette.exchanges[1]?.response.body ?? '';
    expect(recordedStream).toContain('data: [DONE]');
    expect(cassette.exchanges[1]?.usage).not.toBeNull();

    const proxy = await replayProxy(file);
    expect(await drive(clientOf(proxy.url))).toEqual(live);
    const raw = await fetch(`${proxy.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(cassette.exchanges[1]?.request.body),
    });
    // The second identical request is occurrence 2, which the cassette does not hold: use a fresh replay.
    expect(raw.status).toBe(400);
    const again = await replayProxy(file);
    await clientOf(again.url).responses.create({ model: 'fake-model', input: 'Say hello' });
    const bytes = await (await fetch(`${again.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cassette.exchanges[1]?.request.body) })).text();
    expect(bytes).toBe(recordedStream);
  });

  it('replays a Responses API stream event for event', async () => {
    const drive = async (client: OpenAI) => {
      const stream = await client.responses.create({ model: 'fake-model', input: 'Stream a tool call', stream: true });
      const events: unknown[] = [];
      for await (const event of stream) events.push(event);
      return events;
    };
    const { file, live, cassette } = await record([{ text: 'Running the tests.', toolCalls: [{ name: 'run', arguments: { command: 'pytest -q' } }] }], drive);
    expect(cassette.exchanges[0]).toMatchObject({ endpoint: '/responses', response: { is_stream: true } });
    expect(cassette.exchanges[0]?.usage).toMatchObject({ input_tokens: expect.any(Number) });
    const proxy = await replayProxy(file);
    expect(await drive(clientOf(proxy.url))).toEqual(live);
  });

  it('records a 429 as an exchange and replays it as a 429, so the client retries the same way', async () => {
    const ask = (client: OpenAI) => client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] });
    const { file, cassette } = await record([{ status: 429, headers: { 'Retry-After': '0' } }, 'after the retry'], ask, 2);
    expect(cassette.exchanges.map((exchange) => [exchange.response.status, exchange.occurrence])).toEqual([[429, 1], [200, 2]]);
    expect(cassette.exchanges[0]?.response.headers['retry-after']).toBe('0');
    const proxy = await replayProxy(file);
    const replayed = await ask(clientOf(proxy.url, 2));
    expect(replayed.choices[0]?.message.content).toBe('after the retry');
    expect(proxy.exchangeCount).toBe(2);
    // Without the retry the client sees the recorded 429 itself.
    const strict = await replayProxy(file);
    await expect(ask(clientOf(strict.url, 0))).rejects.toMatchObject({ status: 429 });
  });

  it('stops at the first request the cassette does not hold and shows the request diff', async () => {
    const ask = (system: string) => (client: OpenAI) => client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'system', content: system }, { role: 'user', content: 'Fix it' }] });
    const { file } = await record(['ok'], ask('You fix bugs.\nBe brief.'));
    const proxy = await replayProxy(file);
    await expect(ask('You fix bugs.\nBe thorough.')(clientOf(proxy.url))).rejects.toMatchObject({ status: 400 });
    expect(proxy.divergence).toMatchObject({ role: 'agent', step: 1, endpoint: '/chat/completions', nearestStep: 1 });
    expect(proxy.divergence?.diff).toContain('-body.messages[0].content | Be brief.');
    expect(proxy.divergence?.diff).toContain('+body.messages[0].content | Be thorough.');
  });

  it('replay-then-live goes live at the first miss and records the fork', async () => {
    const ask = (text: string) => (client: OpenAI) => client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: text }] });
    const first = await record(['recorded answer'], async (client) => ask('one')(client));
    upstream = await startFakeLlmServer({ script: ['live answer'] });
    const forkFile = path.join(folder, 'fork.jsonl');
    const proxy = await replayProxy(first.file, 'replay-then-live', { upstream: upstream.url, cassette: forkFile });
    const client = clientOf(proxy.url);
    expect((await ask('one')(client)).choices[0]?.message.content).toBe('recorded answer');
    expect((await ask('two')(client)).choices[0]?.message.content).toBe('live answer');
    await proxy.close();
    const fork = await readCassette(forkFile);
    expect(fork.header.replay_of).toEqual({ cassette: first.file, forked_at: { role: 'agent', step: 2 } });
    expect(fork.exchanges.map((exchange) => exchange.source)).toEqual(['cassette', 'live']);
    expect(proxy.divergence?.step).toBe(2);
  });

  it('keeps roles apart: each role has its own base URL, steps and upstream', async () => {
    upstream = await startFakeLlmServer({ script: ['agent answer', 'judge answer'] });
    const file = path.join(folder, 'cassette.jsonl');
    const proxy = await startModelProxy({ mode: 'record', cassette: file, upstreams: { agent: upstream.url, judge: upstream.url } });
    proxies.push(proxy);
    await clientOf(proxy.baseUrlFor('agent')).chat.completions.create({ model: 'a', messages: [{ role: 'user', content: 'x' }] });
    await clientOf(proxy.baseUrlFor('judge')).chat.completions.create({ model: 'j', messages: [{ role: 'user', content: 'x' }] });
    await proxy.close();
    const cassette = await readCassette(file);
    expect(cassette.exchanges.map((exchange) => [exchange.role, exchange.step, exchange.model])).toEqual([['agent', 1, 'a'], ['judge', 1, 'j']]);
    expect(() => proxy.baseUrlFor('no/slash')).toThrow(/role: expected letters/);
  });

  it('answers 502 naming the upstream when it refuses, and checkUpstream says so in one line', async () => {
    const port = await closedPort();
    const dead = `http://127.0.0.1:${port}/v1`;
    await expect(checkUpstream(dead)).rejects.toThrow(`cannot reach the upstream ${dead}: connection refused (ECONNREFUSED)`);
    const file = path.join(folder, 'cassette.jsonl');
    const proxy = await startModelProxy({ mode: 'record', cassette: file, upstream: dead });
    proxies.push(proxy);
    const error = await clientOf(proxy.url).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 502 });
    expect(String((error as Error).message)).toContain(`cannot reach the upstream ${dead}/chat/completions: connection refused (ECONNREFUSED)`);
    await proxy.close();
    expect((await readCassette(file)).exchanges[0]).toMatchObject({ response: { status: 502 }, upstream_error: 'connection refused (ECONNREFUSED)' });
  });

  it('names the endpoint\'s failure on the last exchange (refused, 5xx, 429), and none for a client error or a success', async () => {
    const port = await closedPort();
    const refused = await startModelProxy({ mode: 'record', upstream: `http://127.0.0.1:${port}/v1` });
    proxies.push(refused);
    expect(refused.lastEndpointFailure).toBeUndefined();
    await clientOf(refused.url).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch(() => undefined);
    expect(refused.lastEndpointFailure).toBe('the endpoint failed: connection refused (ECONNREFUSED)');

    upstream = await startFakeLlmServer({ script: [{ status: 503 }, { status: 400 }, { status: 429 }, 'fine'] });
    const proxy = await startModelProxy({ mode: 'record', upstream: upstream.url });
    proxies.push(proxy);
    const ask = () => clientOf(proxy.url).chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] }).catch(() => undefined);
    await ask();
    expect(proxy.lastEndpointFailure).toBe('the endpoint answered HTTP 503');
    // A 400 is the request's fault (the agent's), not the endpoint's.
    await ask();
    expect(proxy.lastEndpointFailure).toBeUndefined();
    await ask();
    expect(proxy.lastEndpointFailure).toBe('the endpoint answered HTTP 429');
    await ask();
    expect(proxy.lastEndpointFailure).toBeUndefined();
  });

  it('writes the header as soon as it has started', async () => {
    const file = path.join(folder, 'cassette.jsonl');
    const proxy = await startModelProxy({ mode: 'record', cassette: file, upstream: 'http://127.0.0.1:9/v1', run: { taskId: 'toy', repeatIndex: 3 } });
    proxies.push(proxy);
    await proxy.close();
    expect(JSON.parse((await readFile(file, 'utf8')).split('\n')[0] ?? '')).toMatchObject({ format: 'agentbench.cassette', task_id: 'toy', repeat_index: 3 });
  });
});
