import OpenAI, { InternalServerError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FakeLlmServerError,
  lastUserText,
  requestedModel,
  startFakeLlmServer,
  type FakeLlmServer,
  type FakeLlmServerOptions,
  type RecordedRequest,
} from '../src/index.js';

let server: FakeLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: FakeLlmServerOptions, maxRetries = 0): Promise<{ server: FakeLlmServer; client: OpenAI }> {
  server = await startFakeLlmServer(options);
  return { server, client: new OpenAI({ apiKey: 'test-key', baseURL: server.url, maxRetries }) };
}

describe('request recording', () => {
  it('records method, path, headers and the parsed body of every request', async () => {
    const { client, server } = await start({ script: ['ok'] });
    await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }], temperature: 0 });
    await client.models.list();
    expect(server.requests).toHaveLength(2);
    const [completion, models] = server.requests;
    expect(completion).toMatchObject({
      index: 0,
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }], temperature: 0 },
      outcome: 'replied',
      reply: 'ok',
    });
    expect(completion?.headers['authorization']).toBe('Bearer test-key');
    expect(completion?.headers['content-type']).toBe('application/json');
    expect(typeof completion?.receivedAt).toBe('number');
    expect(models).toMatchObject({ index: 1, method: 'GET', path: '/v1/models', body: null, outcome: 'listed_models' });
  });

  it('records a body that is not JSON as raw text and answers 400', async () => {
    const { server } = await start({ script: ['unused'] });
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{"model": ' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('the body must be a JSON object');
    expect(server.requests[0]).toMatchObject({ body: '{"model": ', outcome: 'invalid_request' });
    expect(server.pendingReplyCount).toBe(1);
  });

  it('answers 400 naming the parameter when the model is missing, without consuming a reply', async () => {
    const { server } = await start({ script: ['unused'] });
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'model', type: 'invalid_request_error' } });
    expect(server.pendingReplyCount).toBe(1);
  });

  it('answers 404 for an unknown route, listing the served ones, and records it', async () => {
    const { server } = await start({});
    const response = await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      'fake-llm-server: no route for POST /v1/embeddings; served: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages, POST /v1/messages/count_tokens, GET /v1/models',
    );
    expect(server.requests[0]?.outcome).toBe('not_found');
  });

  it('answers 405 for a completion path asked with another method than POST', async () => {
    const { server } = await start({ script: ['unused'] });
    const response = await fetch(`${server.url}/responses`);
    expect(response.status).toBe(405);
    expect(response.headers.get('x-should-retry')).toBe('false');
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe('fake-llm-server: GET /v1/responses is not served; use POST');
    expect(server.requests[0]?.outcome).toBe('not_found');
    expect(server.pendingReplyCount).toBe(1);
  });

  it('answers 400 naming input when a Responses request has an input of the wrong type', async () => {
    const { server } = await start({ script: ['unused'] });
    const response = await fetch(`${server.url}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', input: 42 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'input', message: 'fake-llm-server: expected a string or an array of input items, found 42' } });
    expect(server.requests[0]?.outcome).toBe('invalid_request');
  });

  it('calls onRequest with each answered request', async () => {
    const seen: string[] = [];
    const { client } = await start({ script: ['a'], onRequest: (request) => seen.push(`${request.path} ${request.outcome}`) });
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(seen).toEqual(['/v1/chat/completions replied']);
  });
});

describe('script exhaustion', () => {
  it('answers 500 with a body naming the request, records it, and tells the client not to retry', async () => {
    // Retries are on: the x-should-retry: false header must stop the client after one request.
    const { client, server } = await start({ script: ['only one'] }, 3);
    await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'first' }] });
    const error = await client.chat.completions
      .create({ model: 'gpt-test', messages: [{ role: 'user', content: 'second question' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).code).toBe('script_exhausted');
    expect((error as InternalServerError).message).toBe(
      '500 fake-llm-server: script exhausted: no reply left for requests[1] (POST /v1/chat/completions, model "gpt-test", ' +
        'last user message "second question"). Add replies to the script or call enqueue() before this request.',
    );
    expect(server.requests.map((request) => request.outcome)).toEqual(['replied', 'script_exhausted']);
  });

  it('is exhausted from the start without a script', async () => {
    const { client, server } = await start({});
    await expect(client.responses.create({ model: 'm', input: 'hi' })).rejects.toMatchObject({ status: 500, code: 'script_exhausted' });
    expect(server.requests[0]?.outcome).toBe('script_exhausted');
  });
});

describe('scripts', () => {
  it('routes by model and content with a script function', async () => {
    const { client } = await start({
      script: (request: RecordedRequest) => {
        if (requestedModel(request) === 'judge-model') return '{"verdict": "pass"}';
        return lastUserText(request)?.includes('weather') === true ? 'Sunny.' : 'I do not know.';
      },
    });
    const ask = async (model: string, content: string) =>
      (await client.chat.completions.create({ model, messages: [{ role: 'user', content }] })).choices[0]?.message.content;
    expect(await ask('agent-model', 'What is the weather?')).toBe('Sunny.');
    expect(await ask('judge-model', 'Judge this')).toBe('{"verdict": "pass"}');
    expect(await ask('agent-model', 'Anything else?')).toBe('I do not know.');
  });

  it('serves enqueued replies before the script function', async () => {
    const { client, server } = await start({ script: () => 'from the function' });
    server.enqueue({ status: 500, headers: { 'x-should-retry': 'false' } }, 'queued');
    const ask = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    await expect(ask()).rejects.toMatchObject({ status: 500 });
    expect((await ask()).choices[0]?.message.content).toBe('queued');
    expect((await ask()).choices[0]?.message.content).toBe('from the function');
  });

  it('answers 500 naming the request when the script function throws', async () => {
    const { client, server } = await start({
      script: () => {
        throw new Error('no route for this prompt');
      },
    });
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 500,
      code: 'script_error',
      message: '500 fake-llm-server: the script function threw: no route for this prompt',
    });
    expect(server.requests[0]?.outcome).toBe('script_error');
  });

  it('reports a malformed reply from the script function with its path', async () => {
    const { client } = await start({ script: () => ({ toolCalls: [{ name: '' }] }) });
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      code: 'script_error',
      message: '500 fake-llm-server: script(requests[0]).toolCalls[0].name: expected a non-empty string, found ""',
    });
  });

  it('rejects a malformed reply in the script at start, naming it', async () => {
    await expect(startFakeLlmServer({ script: ['fine', { text: 3 } as never] })).rejects.toThrow(
      'script[1].text: expected a string, found 3',
    );
  });

  it('rejects a malformed enqueued reply and leaves the queue as it was', async () => {
    const { server } = await start({});
    expect(() => server.enqueue('ok', { status: 'busy' } as never)).toThrow(FakeLlmServerError);
    expect(() => server.enqueue('ok', { status: 'busy' } as never)).toThrow('replies[1] (queue position 1).status');
    expect(server.pendingReplyCount).toBe(0);
  });

  it('reset forgets recorded requests and queued replies', async () => {
    const { client, server } = await start({ script: ['a', 'b'] });
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    server.reset();
    expect(server.requests).toHaveLength(0);
    expect(server.pendingReplyCount).toBe(0);
    server.enqueue('after reset');
    expect((await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).choices[0]?.message.content).toBe(
      'after reset',
    );
    expect(server.requests[0]?.index).toBe(0);
  });
});

describe('server lifecycle and options', () => {
  it('serves on loopback with a base URL ending in /v1', async () => {
    const { server } = await start({});
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/v1`);
  });

  it('stops listening on close, and close can be called twice', async () => {
    const { server } = await start({});
    await server.close();
    await server.close();
    await expect(fetch(`${server.url}/models`)).rejects.toThrow();
  });

  it('closes through Symbol.asyncDispose', async () => {
    const { server } = await start({});
    await server[Symbol.asyncDispose]();
    await expect(fetch(`${server.url}/models`)).rejects.toThrow();
  });

  it('rejects a bad port', async () => {
    await expect(startFakeLlmServer({ port: 70_000 })).rejects.toThrow('options.port: expected an integer from 0 to 65535, found 70000');
  });

  it('reports a port in use with the address', async () => {
    const { server } = await start({});
    await expect(startFakeLlmServer({ port: server.port })).rejects.toThrow(`cannot listen on 127.0.0.1:${server.port}: listen EADDRINUSE`);
  });
});
