import { describe, expect, it } from 'vitest';
import type { FakeReply } from '../src/index.js';
import { useFakeOpenAi } from './openai-client.js';

const start = useFakeOpenAi();

describe('POST /v1/responses (Responses API)', () => {
  it('answers with a message item, output_text and usage', async () => {
    const { client } = await start(['All tests pass.']);
    const response = await client.responses.create({ model: 'gpt-test', instructions: 'Be brief.', input: 'Did it work?' });
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.model).toBe('gpt-test');
    expect(response.output_text).toBe('All tests pass.');
    expect(response.output).toEqual([
      {
        type: 'message',
        id: 'msg_fake_0',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'All tests pass.', annotations: [], logprobs: [] }],
      },
    ]);
    // input: "Be brief." (2) + "Did it work?" (3); output: 3 words
    expect(response.usage).toMatchObject({ input_tokens: 5, output_tokens: 3, total_tokens: 8 });
    expect(response.instructions).toBe('Be brief.');
  });

  it('answers with function_call items', async () => {
    const { client } = await start([{ toolCalls: [{ name: 'search', arguments: { query: 'def add' } }, { name: 'run', arguments: '{"command":' }] }]);
    const response = await client.responses.create({
      model: 'gpt-test',
      input: [{ role: 'user', content: 'find add' }],
      tools: [{ type: 'function', name: 'search', parameters: { type: 'object' }, strict: false }],
    });
    expect(response.output).toEqual([
      { type: 'function_call', id: 'fc_fake_0_0', call_id: 'call_fake_0_0', name: 'search', arguments: '{"query":"def add"}', status: 'completed' },
      { type: 'function_call', id: 'fc_fake_0_1', call_id: 'call_fake_0_1', name: 'run', arguments: '{"command":', status: 'completed' },
    ]);
    expect(response.output_text).toBe('');
    expect(response.tools).toHaveLength(1);
  });

  it('marks a length-limited answer incomplete with reason max_output_tokens', async () => {
    const { client } = await start([{ text: 'It was a dark', finishReason: 'length' }]);
    const response = await client.responses.create({ model: 'gpt-test', input: 'story', max_output_tokens: 16 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.max_output_tokens).toBe(16);
  });

  it('streams events that the client accumulates into the same response', async () => {
    const reply: FakeReply = { text: 'Running the tests now.', toolCalls: [{ name: 'run', arguments: { command: 'pytest -q tests/' }, id: 'call_1' }] };
    const { client } = await start([reply, reply]);
    const stream = client.responses.stream({ model: 'gpt-test', input: 'go' });
    const eventTypes: string[] = [];
    let textDeltas = '';
    for await (const event of stream) {
      eventTypes.push(event.type);
      if (event.type === 'response.output_text.delta') textDeltas += event.delta;
    }
    const streamed = await stream.finalResponse();
    const plain = await client.responses.create({ model: 'gpt-test', input: 'go' });
    expect(textDeltas).toBe('Running the tests now.');
    expect(eventTypes[0]).toBe('response.created');
    expect(eventTypes.at(-1)).toBe('response.completed');
    expect(eventTypes).toContain('response.function_call_arguments.delta');
    expect(streamed.output_text).toBe('Running the tests now.');
    const withoutIds = (output: typeof plain.output) => output.map((item) => ({ ...item, id: undefined }));
    // The stream helper adds client-side fields (parsed, parsed_arguments): compare what the server sent.
    expect(withoutIds(streamed.output)).toMatchObject(withoutIds(plain.output));
    expect(streamed.usage).toEqual(plain.usage);
  });
});
