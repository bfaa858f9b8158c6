import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import type { FakeReply } from '../src/index.js';
import { useFakeOpenAi } from './openai-client.js';

const start = useFakeOpenAi();

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('POST /v1/chat/completions with stream: true', () => {
  it('streams the text in several deltas that join back to it', async () => {
    const { client } = await start(['Tests pass now, the fix was one line.']);
    const chunks = await collect(
      await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'status?' }], stream: true }),
    );
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Tests pass now, the fix was one line.');
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === chunks[0]?.id)).toBe(true);
    // Without stream_options.include_usage there is no usage at all.
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('streams tool calls as header and argument deltas, and a final usage chunk when asked', async () => {
    const { client } = await start([
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'src/calculator/operations.py', start_line: 1 } },
          { name: 'run', arguments: { command: 'python -m pytest -q' } },
        ],
        usage: { prompt_tokens: 321 },
      },
    ]);
    const chunks = await collect(
      await client.chat.completions.create({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'fix' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const argumentsByIndex = new Map<number, string>();
    const namesByIndex = new Map<number, string>();
    let argumentDeltas = 0;
    for (const chunk of chunks) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        if (call.function?.name !== undefined) namesByIndex.set(call.index, call.function.name);
        if (call.function?.arguments) {
          argumentDeltas += 1;
          argumentsByIndex.set(call.index, (argumentsByIndex.get(call.index) ?? '') + call.function.arguments);
        }
      }
    }
    expect([...namesByIndex.entries()]).toEqual([
      [0, 'read_file'],
      [1, 'run'],
    ]);
    expect(JSON.parse(argumentsByIndex.get(0) ?? '')).toEqual({ path: 'src/calculator/operations.py', start_line: 1 });
    expect(JSON.parse(argumentsByIndex.get(1) ?? '')).toEqual({ command: 'python -m pytest -q' });
    expect(argumentDeltas).toBeGreaterThan(2);
    const finish = chunks.find((chunk) => chunk.choices[0]?.finish_reason !== null && chunk.choices.length > 0);
    expect(finish?.choices[0]?.finish_reason).toBe('tool_calls');
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    // completion: read_file (1 + 1 word: {"path":"src/calculator/operations.py","start_line":1})
    //           + run (1 + 4 words: {"command":"python / -m / pytest / -q"}) = 7
    expect(last?.usage).toMatchObject({ prompt_tokens: 321, completion_tokens: 7, total_tokens: 328 });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('is assembled by the client stream helper into the same message as the non-streaming answer', async () => {
    const reply: FakeReply = { text: 'Reading the file.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.py' }, id: 'call_1' }] };
    const { client } = await start([reply, reply]);
    const request = { model: 'gpt-test', messages: [{ role: 'user' as const, content: 'go' }] };
    const streamed = await client.chat.completions.stream(request).finalChatCompletion();
    const plain = await client.chat.completions.create(request);
    expect(streamed.choices[0]?.message.content).toBe(plain.choices[0]?.message.content);
    expect(streamed.choices[0]?.message.tool_calls).toEqual(plain.choices[0]?.message.tool_calls);
    expect(streamed.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('sends server-sent events exactly as OpenAI does, ending with data: [DONE]', async () => {
    const { server } = await start(['hi there']);
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const body = await response.text();
    const frames = body.split('\n\n').filter((frame) => frame !== '');
    expect(frames.every((frame) => frame.startsWith('data: '))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
