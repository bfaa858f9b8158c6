import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeLlmServer } from '@agentbench/fake-llm-server';
import { readCassette } from '@agentbench/cassette';
import { LocalSandbox } from '@agentbench/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopFixture, FIXING_PATCH, type LoopFixture } from '../../../../agent-loop/test/fixtures.js';
import { replayAgentAttempt } from './replay-agent-attempt.js';
import { runAgentAttempt } from '../run-agent-attempt.js';

const editedPromptAgent = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/edited-prompt-agent.mjs');
const localSandbox = (spec: Parameters<typeof LocalSandbox.create>[0]) => LocalSandbox.create(spec, { isWarningSilenced: true });

let fixture: LoopFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

/** An LLM-agent attempt against the fake server, recorded; the server is stopped before it returns. */
async function recordLlmAttempt(loopFixture: LoopFixture) {
  const server = await startFakeLlmServer({
    script: [
      { toolCalls: [{ name: 'list_files', arguments: {} }], usage: { prompt_tokens: 100, completion_tokens: 10 } },
      { status: 429, headers: { 'Retry-After': '0' } },
      { toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: FIXING_PATCH } }], usage: { prompt_tokens: 200, completion_tokens: 40 } },
    ],
  });
  try {
    const recorded = await runAgentAttempt({
      task: loopFixture.task.file,
      variant: 'llm',
      model: 'fake-model',
      outDir: path.join(loopFixture.root, 'out'),
      createSandbox: localSandbox,
      logLlmMessages: false,
      environment: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key', AGENTBENCH_LLM_MAX_RETRIES: '2' },
    });
    expect(server.requests).toHaveLength(3);
    return recorded;
  } finally {
    await server.close();
  }
}

// Two attempts per test (record, replay), each with setup and a final test: minutes on a loaded machine.
describe('recording and replaying an agent attempt (local sandbox, fake LLM server)', { timeout: 240_000 }, () => {
  it('records every model exchange of an LLM attempt in cassette.jsonl', async () => {
    fixture = await createLoopFixture();
    const recorded = await recordLlmAttempt(fixture);
    expect(recorded.record.result).toMatchObject({ passed: true, stop_reason: 'SUCCESS' });
    expect(recorded.record.artifact_paths['cassette']).toBe('cassette.jsonl');
    // The record names the endpoint, not the proxy in front of it.
    expect(recorded.record.model?.['base_url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const cassette = await readCassette(path.join(recorded.runDir, 'cassette.jsonl'));
    expect(cassette.header).toMatchObject({ task_id: 'shell_fixture', repeat_index: 0, replay_of: null });
    expect(cassette.exchanges.map((exchange) => [exchange.role, exchange.step, exchange.response.status, exchange.occurrence])).toEqual([
      ['agent', 1, 200, 1],
      ['agent', 2, 429, 1],
      ['agent', 3, 200, 2],
    ]);
    expect(recorded.models).toMatchObject({ exchangeCount: 3, unservedCount: 0 });
  });

  it('replays it with the server stopped: the same verdict and the same tool calls, in a new folder marked as a replay', async () => {
    fixture = await createLoopFixture();
    const recorded = await recordLlmAttempt(fixture);
    const { replay, comparison } = await replayAgentAttempt({ attemptDir: recorded.runDir, createSandbox: localSandbox, environment: {} });
    expect(replay.runDir).not.toBe(recorded.runDir);
    expect(replay.record.result).toMatchObject({ passed: true, stop_reason: 'SUCCESS' });
    expect(replay.models.divergence).toBeUndefined();
    expect(comparison).toMatchObject({ isSame: true, verdict: { original: 'PASSED', replay: 'PASSED' }, toolCalls: { original: 2, replay: 2 } });
    const marker = JSON.parse(await readFile(path.join(replay.runDir, 'replay.json'), 'utf8')) as Record<string, unknown>;
    expect(marker).toMatchObject({ replay_of: { run_dir: recorded.runDir, run_id: recorded.record.run_id }, mode: 'replay', divergence: null });
    const ownCassette = await readCassette(path.join(replay.runDir, 'cassette.jsonl'));
    expect(ownCassette.header.replay_of?.cassette).toBe(path.join(recorded.runDir, 'cassette.jsonl'));
    expect(ownCassette.exchanges.map((exchange) => exchange.source)).toEqual(['cassette', 'cassette', 'cassette']);
  });

  it('stops at step 1 when the system prompt changed, and shows the prompt in the diff', async () => {
    fixture = await createLoopFixture();
    const recorded = await recordLlmAttempt(fixture);
    const { replay, comparison } = await replayAgentAttempt({ attemptDir: recorded.runDir, createSandbox: localSandbox, environment: {}, variant: editedPromptAgent });
    expect(replay.models.divergence).toMatchObject({ role: 'agent', step: 1, endpoint: '/chat/completions' });
    expect(replay.models.divergence?.diff).toContain('+body.messages[0].content: "You are a careful engineer.');
    expect(replay.record.result.passed).toBe(false);
    expect(comparison.isSame).toBe(false);
    expect(comparison.firstDifference).toMatchObject({ call: 1, replay: null });
  });

  it('with thenLive, goes on against the recorded endpoint from the first miss and records the fork', async () => {
    fixture = await createLoopFixture();
    const recorded = await recordLlmAttempt(fixture);
    const port = Number(new URL(String(recorded.record.model?.['base_url'])).port);
    // The recorded endpoint is back, answering the changed agent differently.
    const live = await startFakeLlmServer({ port, script: [{ toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: FIXING_PATCH } }] }] });
    try {
      const { replay } = await replayAgentAttempt({ attemptDir: recorded.runDir, createSandbox: localSandbox, environment: { OPENAI_API_KEY: 'test-key' }, variant: editedPromptAgent, thenLive: true });
      expect(replay.models.forkedAt).toEqual({ role: 'agent', step: 1 });
      expect(replay.record.result).toMatchObject({ passed: true });
      expect(live.requests).toHaveLength(1);
      const fork = await readCassette(path.join(replay.runDir, 'cassette.jsonl'));
      expect(fork.header.replay_of?.forked_at).toEqual({ role: 'agent', step: 1 });
      expect(fork.exchanges.map((exchange) => exchange.source)).toEqual(['live']);
      expect(JSON.parse(await readFile(path.join(replay.runDir, 'replay.json'), 'utf8'))).toMatchObject({ mode: 'replay-then-live', forked_at: { role: 'agent', step: 1 } });
    } finally {
      await live.close();
    }
  });

  it('refuses an attempt folder without a cassette, and a cassette of another task, in one line', async () => {
    fixture = await createLoopFixture({ script: [{ tool: 'apply_patch', args: { unified_diff: FIXING_PATCH } }] });
    const scripted = await runAgentAttempt({ task: fixture.task.file, outDir: path.join(fixture.root, 'out'), createSandbox: localSandbox });
    const cassetteFile = path.join(scripted.runDir, 'cassette.jsonl');
    const text = await readFile(cassetteFile, 'utf8');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(cassetteFile, text.replace('"task_id":"shell_fixture"', '"task_id":"other_task"'));
    await expect(replayAgentAttempt({ attemptDir: scripted.runDir, createSandbox: localSandbox })).rejects.toThrow(
      `${cassetteFile}: line 1: recorded for task "other_task", not "shell_fixture": this cassette belongs to another run`,
    );
    await expect(replayAgentAttempt({ attemptDir: fixture.root })).rejects.toThrow(/attempt\.json: not found: expected an agent attempt record/);
  });
});
