import path from 'node:path';
import { readCassette } from '@agentbench/cassette';
import { startFakeLlmServer } from '@agentbench/fake-llm-server';
import { LocalSandbox } from '@agentbench/sandbox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLoopFixture, FIXING_PATCH, type LoopFixture } from '../../../agent-loop/test/fixtures.js';
import { runAgentRun } from './run-agent-run.js';

const localSandbox = (spec: Parameters<typeof LocalSandbox.create>[0]) => LocalSandbox.create(spec, { isWarningSilenced: true });

let fixture: LoopFixture | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await fixture?.cleanup();
  fixture = undefined;
});

// Two real attempts (setup, the LLM agent against a fake server, the final test) in a local sandbox.
describe('ab run keys each repeat\'s model exchanges apart (local sandbox, fake LLM server)', { timeout: 240_000 }, () => {
  it('gives two repeats of one task different cassette keys for the same request', async () => {
    fixture = await createLoopFixture();
    const fix = { toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: FIXING_PATCH } }], usage: { prompt_tokens: 100, completion_tokens: 10 } };
    const server = await startFakeLlmServer({ script: [fix, fix] });
    try {
      vi.stubEnv('OPENAI_BASE_URL', server.url);
      vi.stubEnv('OPENAI_API_KEY', 'test-key');
      vi.stubEnv('AGENTBENCH_LOG_LLM_MESSAGES', '0');
      const runDir = path.join(fixture.root, 'run');
      const run = await runAgentRun({ tasks: [fixture.task], models: ['fake-model'], runs: 2, concurrency: 1, outDir: runDir, createSandbox: localSandbox, mirrors: [] });
      expect(run.progress).toMatchObject({ done: 2, passed: 2 });
      const cassettes = await Promise.all([1, 2].map((repeat) => readCassette(path.join(runDir, 'fake-model', 'agent_runs', 'shell_fixture', `r${repeat}-try1`, 'cassette.jsonl'))));
      expect(cassettes.map((cassette) => cassette.header.repeat_index)).toEqual([0, 1]);
      const [first = '', second = ''] = cassettes.map((cassette) => cassette.exchanges[0]?.key ?? '');
      // The same request (same hash, first occurrence), kept apart by the repeat index.
      expect(first.split(':').slice(0, 2)).toEqual(second.split(':').slice(0, 2));
      expect([first.split(':')[2], second.split(':')[2]]).toEqual(['0', '1']);
      expect(first).not.toBe(second);
    } finally {
      await server.close();
    }
  });
});
