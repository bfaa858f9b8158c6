import { startFakeLlmServer, type FakeLlmServer, type FakeReply, type FakeScript } from '@agentbench/fake-llm-server';
import type { JudgeClientOptions } from '../../src/judge/judge-configuration.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';

export interface JudgeFixture {
  server: FakeLlmServer;
  cache: TemporaryDirectory;
  /** Judge options for the context: this server, a temp cache, no retries, no environment variables. */
  llm(overrides?: Partial<JudgeClientOptions>): JudgeClientOptions;
  /** Request bodies the server received, as objects. */
  bodies(): Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startJudgeFixture(script?: FakeScript): Promise<JudgeFixture> {
  const server = await startFakeLlmServer(script === undefined ? {} : { script });
  const cache = await createTemporaryDirectory();
  return {
    server,
    cache,
    llm: (overrides = {}) => ({ baseURL: server.url, apiKey: 'test-key', model: 'judge-model', cacheDir: cache.path, maxRetries: 0, env: {}, ...overrides }),
    bodies: () => server.requests.map((request) => request.body as Record<string, unknown>),
    async close() {
      await server.close();
      await cache.remove();
    },
  };
}

/** A JSON answer as the model's message text, with fixed usage. */
export function jsonReply(value: unknown): FakeReply {
  return { text: typeof value === 'string' ? value : JSON.stringify(value), usage: { prompt_tokens: 100, completion_tokens: 20 } };
}

export const yes = (confidence = 0.9): FakeReply => jsonReply({ judgment: 'yes', confidence, reasoning: 'It did.' });
export const no = (confidence = 0.9): FakeReply => jsonReply({ judgment: 'no', confidence, reasoning: 'It did not.' });
