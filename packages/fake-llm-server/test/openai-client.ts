import OpenAI from 'openai';
import { afterEach } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply } from '../src/index.js';

/**
 * A fake server per test and an OpenAI client on it (no retries), closed after each test: call it
 * once at the top of a test file, then `await start(script)` in a test.
 */
export function useFakeOpenAi(): (script: FakeReply[]) => Promise<{ server: FakeLlmServer; client: OpenAI }> {
  let server: FakeLlmServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (script) => {
    server = await startFakeLlmServer({ script });
    return { server, client: new OpenAI({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }) };
  };
}
