import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply } from '@agentbench/fake-llm-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../../../test-support/closed-port.js';
import { readCassette } from '../read-cassette.js';
import type { GatewayBudget } from './budget-ledger.js';
import { GATEWAY_ERROR_HEADER } from './gateway-error.js';
import { startModelProxy, type ModelProxy } from './start-model-proxy.js';

const OPENAI_KEY = 'sk-gateway-openai';
const ANTHROPIC_KEY = 'sk-gateway-anthropic';

/** One scripted turn, asked in a dialect, streamed or not, through a real SDK client (the client holds a dummy key). */
interface Dialect {
  name: string;
  endpoint: string;
  /** Asks and returns what the client parsed (text and tool calls). */
  ask(baseUrl: string, isStream: boolean): Promise<unknown>;
  /** The upstream saw the gateway's key, not the client's. */
  keyOf(headers: Record<string, string>): string | undefined;
}

const openAiClient = (baseURL: string): OpenAI => new OpenAI({ apiKey: 'dummy', baseURL, maxRetries: 0 });
const anthropicClient = (baseURL: string): Anthropic => new Anthropic({ apiKey: 'dummy', baseURL: baseURL.replace(/\/v1$/, ''), maxRetries: 0 });

const DIALECTS: Dialect[] = [
  {
    name: 'Chat Completions',
    endpoint: '/chat/completions',
    async ask(baseUrl, isStream) {
      const request = { model: 'fake-model', messages: [{ role: 'user' as const, content: 'Fix the bug' }] };
      if (!isStream) return (await openAiClient(baseUrl).chat.completions.create(request)).choices[0]?.message;
      const stream = await openAiClient(baseUrl).chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
      const pieces: unknown[] = [];
      for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta ?? chunk.usage);
      return pieces;
    },
    keyOf: (headers) => headers['authorization'],
  },
  {
    name: 'Responses',
    endpoint: '/responses',
    async ask(baseUrl, isStream) {
      const request = { model: 'fake-model', input: 'Fix the bug' };
      if (!isStream) return (await openAiClient(baseUrl).responses.create(request)).output;
      const stream = await openAiClient(baseUrl).responses.create({ ...request, stream: true });
      const events: unknown[] = [];
      for await (const event of stream) events.push(event);
      return events;
    },
    keyOf: (headers) => headers['authorization'],
  },
  {
    name: 'Anthropic Messages',
    endpoint: '/messages',
    async ask(baseUrl, isStream) {
      const request = { model: 'claude-fake', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Fix the bug' }] };
      if (!isStream) return (await anthropicClient(baseUrl).messages.create(request)).content;
      return (await anthropicClient(baseUrl).messages.stream(request).finalMessage()).content;
    },
    // This SDK sends its key as a bearer token; Claude Code sends x-api-key, which the gateway sets.
    keyOf: (headers) => headers['x-api-key'] ?? headers['authorization'],
  },
];

const REPLY: FakeReply = { text: 'Reading it.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/calc.py' } }] };

describe('the model gateway: three wire APIs, streaming and not', () => {
  let folder: string;
  let upstream: FakeLlmServer | undefined;
  const gateways: ModelProxy[] = [];

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'cassette-gateway-'));
  });
  afterEach(async () => {
    for (const gateway of gateways.splice(0)) await gateway.close();
    await upstream?.close();
    upstream = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  async function startGateway(options: { budget?: GatewayBudget; upstreamUrl?: string; socketPath?: string; listensOnLoopback?: boolean } = {}): Promise<ModelProxy> {
    const openaiUrl = options.upstreamUrl ?? upstream?.url ?? '';
    const gateway = await startModelProxy({
      mode: 'record',
      cassette: path.join(folder, 'cassette.jsonl'),
      upstream: { openai: { baseUrl: openaiUrl, apiKey: OPENAI_KEY }, anthropic: { baseUrl: openaiUrl.replace(/\/v1$/, ''), apiKey: ANTHROPIC_KEY } },
      ...options,
    });
    gateways.push(gateway);
    return gateway;
  }

  for (const dialect of DIALECTS) {
    for (const isStream of [false, true]) {
      const name = `${dialect.name}${isStream ? ', streamed' : ''}`;

      it(`${name}: forwards with the gateway's key, counts usage, and replays byte for byte with the upstream stopped`, async () => {
        upstream = await startFakeLlmServer({ script: [REPLY] });
        const gateway = await startGateway();
        const live = await dialect.ask(gateway.url, isStream);
        const direct = upstream.requests[0];
        expect(direct?.path).toBe(`/v1${dialect.endpoint}`);
        expect(dialect.keyOf(direct?.headers ?? {})).toBe(dialect.endpoint === '/messages' ? ANTHROPIC_KEY : `Bearer ${OPENAI_KEY}`);
        expect(JSON.stringify(direct?.headers)).not.toContain('dummy');
        // prompt: "Fix the bug" (3); answer: 2 text words + the name (1) + the argument words (1)
        expect(gateway.usage).toEqual({ requests: 1, inputTokens: 3, outputTokens: 4, costUsd: 0, unpricedRequests: 1 });
        await gateway.close();
        await upstream.close();

        const cassette = await readCassette(path.join(folder, 'cassette.jsonl'));
        const [exchange] = cassette.exchanges;
        expect(exchange).toMatchObject({ endpoint: dialect.endpoint, response: { status: 200, is_stream: isStream } });
        expect(JSON.stringify(exchange)).not.toContain('sk-gateway');
        const player = await startModelProxy({ mode: 'replay', replayFrom: cassette });
        gateways.push(player);
        expect(await dialect.ask(player.url, isStream)).toEqual(live);
        expect(player.divergence).toBeUndefined();
        expect(player.usage).toMatchObject({ requests: 1, inputTokens: 3, outputTokens: 4 });
      });
    }

    it(`${dialect.name}: passes a client's key through when the gateway has none`, async () => {
      upstream = await startFakeLlmServer({ script: [REPLY] });
      const gateway = await startModelProxy({ mode: 'record', upstream: { openai: { baseUrl: upstream.url }, anthropic: { baseUrl: upstream.url.replace(/\/v1$/, '') } } });
      gateways.push(gateway);
      await dialect.ask(gateway.url, false);
      expect(dialect.keyOf(upstream.requests[0]?.headers ?? {})).toContain('dummy');
    });

    it(`${dialect.name}: an upstream that is down is a 502 upstream_unreachable in the dialect's error shape`, async () => {
      const gateway = await startGateway({ upstreamUrl: `http://127.0.0.1:${await closedPort()}/v1` });
      const error = await dialect.ask(gateway.url, true).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 502 });
      const body = (error as { error: unknown }).error;
      if (dialect.endpoint === '/messages') expect(body).toMatchObject({ type: 'error', error: { type: 'upstream_unreachable' } });
      else expect(body).toMatchObject({ code: 'upstream_unreachable', type: 'upstream_unreachable' });
      expect((error as { headers: Headers }).headers.get(GATEWAY_ERROR_HEADER)).toBe('upstream_unreachable');
      expect((error as Error).message).toContain('connection refused (ECONNREFUSED)');
      expect(gateway.lastEndpointFailure).toBe('the endpoint failed: connection refused (ECONNREFUSED)');
      expect(gateway.budgetStop).toBeUndefined();
    });
  }

  const BUDGETS: { budget: GatewayBudget; kind: string; stopReason: string }[] = [
    { budget: { maxRequests: 1 }, kind: 'requests', stopReason: 'MAX_STEPS' },
    { budget: { maxTokens: 5 }, kind: 'tokens', stopReason: 'MAX_TOKENS' },
    { budget: { maxCostUsd: 0.000001, price: { inputUsdPerMillionTokens: 1, outputUsdPerMillionTokens: 1 } }, kind: 'cost', stopReason: 'MAX_COST' },
    { budget: { maxTimeSec: 0.001 }, kind: 'time', stopReason: 'MAX_TIME' },
  ];

  for (const dialect of DIALECTS) {
    for (const { budget, kind, stopReason } of BUDGETS) {
      it(`${dialect.name}: a spent ${kind} budget is a 400 budget_exceeded the client shows, never forwarded, recorded as ${stopReason}`, async () => {
        upstream = await startFakeLlmServer({ script: [REPLY, REPLY] });
        const gateway = await startGateway({ budget });
        if (kind === 'time') await sleep(5); // past the 1 ms budget before the first request
        else await dialect.ask(gateway.url, false);
        const forwarded = upstream.requests.length;
        const error = await dialect.ask(gateway.url, kind === 'tokens').catch((caught: unknown) => caught);
        expect(upstream.requests).toHaveLength(forwarded);
        expect(error).toMatchObject({ status: 400 });
        expect((error as Error).message).toContain(`the attempt's ${kind} budget is spent`);
        const body = (error as { error: unknown }).error;
        if (dialect.endpoint === '/messages') expect(body).toMatchObject({ type: 'error', error: { type: 'budget_exceeded' } });
        else expect(body).toMatchObject({ code: 'budget_exceeded' });
        expect((error as { headers: Headers }).headers.get('x-should-retry')).toBe('false');
        expect(gateway.budgetStop).toMatchObject({ budget: kind, stopReason });
        await gateway.close();
        const exchanges = (await readCassette(path.join(folder, 'cassette.jsonl'))).exchanges;
        expect(exchanges.at(-1)).toMatchObject({ response: { status: 400 }, budget_stop: { budget: kind, stop_reason: stopReason } });
      });
    }
  }

  it('replays a recorded budget stop offline: the same error, and the same stop reason, without the budget given again', async () => {
    upstream = await startFakeLlmServer({ script: [REPLY] });
    const gateway = await startGateway({ budget: { maxRequests: 1 } });
    const dialect = DIALECTS[2] as Dialect;
    await dialect.ask(gateway.url, true);
    const refused = await dialect.ask(gateway.url, true).catch((caught: unknown) => (caught as { error: unknown }).error);
    await gateway.close();
    await upstream.close();
    const player = await startModelProxy({ mode: 'replay', replayFrom: await readCassette(path.join(folder, 'cassette.jsonl')) });
    gateways.push(player);
    await dialect.ask(player.url, true);
    expect(await dialect.ask(player.url, true).catch((caught: unknown) => (caught as { error: unknown }).error)).toEqual(refused);
    expect(player.budgetStop).toMatchObject({ budget: 'requests', stopReason: 'MAX_STEPS', limit: 1, used: 1 });
    expect(player.budgetStop?.message).toContain("the attempt's requests budget is spent");
  });

  it('counts Anthropic usage across message_start and message_delta, cache tokens included, and the provider cost', async () => {
    const usage = { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 7, cost: 0.25 };
    const stream = [
      `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'c', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 1 } } })}\n\n`,
      `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7, cost: 0.25 } })}\n\n`,
      `event: message_stop\ndata: {"type":"message_stop"}\n\n`,
    ].join('');
    upstream = await startFakeLlmServer({ script: [{ status: 200, body: stream, headers: { 'content-type': 'text/event-stream' } }] });
    const gateway = await startGateway();
    await fetch(`${gateway.url}/messages`, { method: 'POST', body: JSON.stringify({ model: 'c', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'hi' }] }) }).then((answer) => answer.text());
    expect(gateway.usage).toEqual({ requests: 1, inputTokens: 100, outputTokens: 7, costUsd: 0.25, unpricedRequests: 0 });
    await gateway.close();
    expect((await readCassette(path.join(folder, 'cassette.jsonl'))).exchanges[0]?.usage).toEqual({ ...usage, output_tokens: 7 });
  });

  it('passes a stream the upstream cuts mid-way on as cut, and records why', async () => {
    upstream = await startFakeLlmServer({ script: [{ text: 'one two three four five', fault: 'drop_connection', afterChunks: 4 }] });
    const gateway = await startGateway();
    const error = await anthropicClient(gateway.url).messages.stream({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }).finalMessage().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    await gateway.close();
    const [exchange] = (await readCassette(path.join(folder, 'cassette.jsonl'))).exchanges;
    expect(exchange?.upstream_error).toMatch(/^the answer was cut: /);
    expect(exchange?.response.body).toContain('event: message_start');
    expect(gateway.lastEndpointFailure).toMatch(/^the endpoint failed: the answer was cut/);
  });

  it('listens on a unix socket (and only there with listensOnLoopback: false), removing it at close', async () => {
    upstream = await startFakeLlmServer({ script: [REPLY] });
    const socketPath = path.join(folder, 'gateway.sock');
    const gateway = await startGateway({ socketPath, listensOnLoopback: false });
    expect(gateway.port).toBe(0);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const sent = httpRequest({ socketPath, path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      sent.on('error', reject);
      sent.end(JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'Fix the bug' }] }));
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ object: 'chat.completion' });
    expect(upstream.requests[0]?.headers['authorization']).toBe(`Bearer ${OPENAI_KEY}`);
    await gateway.close();
    await expect(startModelProxy({ mode: 'record', socketPath: folder })).rejects.toThrow(`socketPath: ${folder} already exists`);
    const again = await startModelProxy({ mode: 'record', socketPath, listensOnLoopback: false });
    await again.close();
  });
});
