import path from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { readCassette } from '../read-cassette.js';
import { startModelProxy } from './start-model-proxy.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';

const body = { model: 'judge-model', temperature: 0, messages: [{ role: 'user', content: 'Did it work?' }], stream: false };
const completion = {
  id: 'cached',
  object: 'chat.completion',
  created: 0,
  model: 'judge-model',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{"judgment":"yes"}' } }],
  usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
};

describe('recordCachedAnswer: an answer that never crossed the wire is kept for replay', () => {
  const temporary = useTemporaryDirectory({ prefix: 'cassette-cached-' });

  it('writes it as a judge exchange marked served_from judge-cache, and a replay with no upstream serves it', async () => {
    const file = path.join(temporary.path, 'cassette.jsonl');
    const recorder = await startModelProxy({ mode: 'record', cassette: file });
    recorder.recordCachedAnswer({ role: 'judge', endpoint: '/chat/completions', body, responseBody: JSON.stringify(completion), servedFrom: 'judge-cache' });
    await recorder.close();
    const cassette = await readCassette(file);
    expect(cassette.exchanges).toHaveLength(1);
    expect(cassette.exchanges[0]).toMatchObject({ role: 'judge', step: 1, model: 'judge-model', served_from: 'judge-cache', response: { status: 200 } });

    const player = await startModelProxy({ mode: 'replay', replayFrom: cassette });
    try {
      const client = new OpenAI({ apiKey: 'unused', baseURL: player.baseUrlFor('judge'), maxRetries: 0 });
      const answer = await client.chat.completions.create(body as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming);
      expect(answer.choices[0]?.message.content).toBe('{"judgment":"yes"}');
      expect(player.divergence).toBeUndefined();
      expect(player.unservedExchanges()).toEqual([]);
    } finally {
      await player.close();
    }
  });

  it('refuses an unknown served_from by name', async () => {
    const recorder = await startModelProxy({ mode: 'record' });
    try {
      expect(() => recorder.recordCachedAnswer({ role: 'judge', endpoint: '/chat/completions', body, responseBody: '{}', servedFrom: 'disk' as 'judge-cache' })).toThrow(/servedFrom: expected one of judge-cache, found "disk"/);
    } finally {
      await recorder.close();
    }
  });
});
