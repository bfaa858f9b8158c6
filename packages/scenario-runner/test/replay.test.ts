import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readCassette } from '@agentbench/cassette';
import type { FakeLlmServer } from '@agentbench/fake-llm-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmSettings } from '../src/llm/llm-settings.js';
import { formatScenarioComparison } from '../src/replay/compare-scenario-results.js';
import { replayScenarioRun } from '../src/replay/replay-scenario-run.js';
import { runMatrix } from '../src/matrix/run-matrix.js';
import { runScenario } from '../src/run/run-scenario.js';
import { judgeAnswer, llmSettings, SCENARIOS, startScenarioLlm, userMessages, type ChatBody } from './helpers/scenario-llm.js';

/** The billing conversation's three roles: the agent asks for the order number, then refunds; the user thanks it. */
async function startBillingLlm(): Promise<FakeLlmServer> {
  // Answers depend on the request alone, so two recordings on one server hold the same conversation.
  return startScenarioLlm({
    agent: (body: ChatBody) => (userMessages(body).length === 1 ? 'Could you give me your order number?' : 'I have refunded the duplicate charge on order 1234.'),
    simulator: (body: ChatBody) => (JSON.stringify(body.messages).includes('I have refunded') ? 'Thank you, that is resolved now!' : 'Sure, it is order 1234.'),
    judge: () => judgeAnswer({ judgment: 'yes', confidence: 0.95, reasoning: 'Refund issued.' }),
  });
}

describe('replayScenarioRun: a recorded scenario run again, every model served from its cassette', () => {
  let folder: string;
  let server: FakeLlmServer | undefined;
  let scenarioFile: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'scenario-replay-'));
    // A copy of our own fixture, so a test can edit it after recording.
    scenarioFile = path.join(folder, 'billing.scenario.yaml');
    await writeFile(scenarioFile, await readFile(path.join(SCENARIOS, 'conversation-satisfaction.scenario.yaml'), 'utf8'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  async function record(settings: (server: FakeLlmServer) => LlmSettings = llmSettings, outName = 'run'): Promise<string> {
    server ??= await startBillingLlm();
    const outDir = path.join(folder, outName);
    const result = await runScenario(scenarioFile, { llm: settings(server), outDir, seed: 7 });
    expect(result.errors).toEqual([]);
    // The step's own evaluation (string_contains "welcome") fails: a verdict of FAILED, every model call answered.
    expect(result.status).toBe('failed');
    return outDir;
  }

  it('with the fake server stopped, gives the same verdict, evaluations and turns, and says so', async () => {
    const runDir = await record();
    await server?.close();
    server = undefined;
    const replayed = await replayScenarioRun({ runDir });
    expect(replayed.divergence).toBeUndefined();
    expect(replayed.replay.result.errors).toEqual([]);
    expect(replayed.replay.result.status).toBe('failed');
    expect(replayed.replay.result.steps[0]?.conversation?.turns.map((turn) => [turn.user_input, turn.agent_response])).toEqual(
      replayed.original.result.steps[0]?.conversation?.turns.map((turn) => [turn.user_input, turn.agent_response]),
    );
    expect(replayed.comparison).toMatchObject({ isSame: true, verdict: { original: 'FAILED', replay: 'FAILED' }, evaluationDifferences: [], turns: { original: 3, replay: 3 } });
    expect(replayed.unservedExchanges).toBe(0);
    expect(formatScenarioComparison(replayed.comparison)).toContain('same: the replay reproduced the run');
    // The replay is its own run folder, its cassette marked as served from the original.
    const cassette = await readCassette(path.join(replayed.replay.runDir, 'cassette.jsonl'));
    expect(cassette.header.replay_of?.cassette).toBe(path.join(runDir, 'cassette.jsonl'));
    expect(cassette.exchanges.every((exchange) => exchange.source === 'cassette')).toBe(true);
    expect(JSON.parse(await readFile(path.join(replayed.replay.runDir, 'replay.json'), 'utf8'))).toMatchObject({ mode: 'replay', divergence: null, comparison: { isSame: true } });
  });

  it('keeps what a replay needs in the run folder: the scenario as read, the models per role, never a key', async () => {
    const runDir = await record((fake) => ({ ...llmSettings(fake), agent: { baseURL: fake.url, model: 'agent-model', apiKey: 'sk-secret-agent-key' } }));
    const settingsText = await readFile(path.join(runDir, 'run-settings.json'), 'utf8');
    expect(settingsText).not.toContain('sk-secret-agent-key');
    const settings = JSON.parse(settingsText) as Record<string, unknown>;
    expect(settings).toMatchObject({
      scenario: { file: scenarioFile, copy: 'scenario.yaml' },
      seed: 7,
      repeat_index: 0,
      agent: { source: 'default', spec: { type: 'llm' } },
      llm: { agent: { base_url: server?.url, model: 'agent-model' }, simulator: { model: 'simulator-model' }, judge: { model: 'judge-model', is_cache_enabled: false } },
    });
    expect(await readFile(path.join(runDir, 'scenario.yaml'), 'utf8')).toBe(await readFile(scenarioFile, 'utf8'));
  });

  it('reports the divergence at the first changed step when a simulated user line changed', async () => {
    const runDir = await record();
    await server?.close();
    server = undefined;
    const edited = path.join(folder, 'edited.scenario.yaml');
    await writeFile(edited, (await readFile(scenarioFile, 'utf8')).replace('get the duplicate charge refunded', 'cancel the subscription'));
    const replayed = await replayScenarioRun({ runDir, scenario: edited });
    // The agent's first reply is the recorded one; the simulator's first request carries the new objective.
    expect(replayed.divergence).toMatchObject({ role: 'simulator', step: 1 });
    expect(replayed.divergence?.diff).toContain('cancel the subscription');
    expect(replayed.replay.result.status).toBe('errored');
    expect(replayed.comparison.isSame).toBe(false);
    expect(replayed.comparison.verdict).toMatchObject({ original: 'FAILED', replay: expect.stringMatching(/^ERRORED: /) });
  });

  it('with thenLive, goes live at the first changed step and records the rest as a fork', async () => {
    const runDir = await record();
    const edited = path.join(folder, 'edited.scenario.yaml');
    await writeFile(edited, (await readFile(scenarioFile, 'utf8')).replace('get the duplicate charge refunded', 'cancel the subscription'));
    const asked = server!.requests.length;
    const replayed = await replayScenarioRun({ runDir, scenario: edited, thenLive: true });
    expect(replayed.mode).toBe('replay-then-live');
    expect(replayed.forkedAt).toEqual({ role: 'simulator', step: 1 });
    expect(replayed.replay.result.errors).toEqual([]);
    // The agent's first reply came from the cassette; everything from the simulator's first request on from the server.
    expect(server!.requests.length).toBeGreaterThan(asked);
    const cassette = await readCassette(path.join(replayed.replay.runDir, 'cassette.jsonl'));
    expect(cassette.header.replay_of?.forked_at).toEqual({ role: 'simulator', step: 1 });
    expect(cassette.exchanges[0]).toMatchObject({ role: 'agent', step: 1, source: 'cassette' });
    expect(cassette.exchanges.slice(1).every((exchange) => exchange.source === 'live')).toBe(true);
  });

  it('serves a judge answer the disk cache gave while recording from the cassette, with the cache folder removed', async () => {
    const cacheDir = path.join(folder, 'judge-cache');
    const withCache = (fake: FakeLlmServer): LlmSettings => ({ ...llmSettings(fake), judge: { baseURL: fake.url, model: 'judge-model', maxRetries: 0, cacheDir } });
    await record(withCache, 'warm-up');
    const judgeRequests = (): number => server!.requests.filter((request) => (request.body as { model?: string }).model === 'judge-model').length;
    const judgeAsked = judgeRequests();
    expect(judgeAsked).toBeGreaterThan(0);
    // The same endpoint (the cache key names it), a fresh conversation.
    const runDir = await record(withCache);
    // Every judge answer of this run came from the disk cache, and is in its cassette all the same.
    expect(judgeRequests()).toBe(judgeAsked);
    const cassette = await readCassette(path.join(runDir, 'cassette.jsonl'));
    const judged = cassette.exchanges.filter((exchange) => exchange.role === 'judge');
    expect(judged).toHaveLength(judgeAsked);
    expect(judged.every((exchange) => exchange.served_from === 'judge-cache')).toBe(true);

    await server?.close();
    server = undefined;
    await rm(cacheDir, { recursive: true, force: true });
    const replayed = await replayScenarioRun({ runDir });
    expect(replayed.divergence).toBeUndefined();
    expect(replayed.replay.result.errors).toEqual([]);
    expect(replayed.comparison.isSame).toBe(true);
    // A replay never reads or fills the judge cache.
    await expect(readFile(cacheDir)).rejects.toThrow();
  });

  it('refuses a folder recorded before runs kept their settings, saying to re-record it', async () => {
    const runDir = await record();
    await rm(path.join(runDir, 'run-settings.json'));
    await expect(replayScenarioRun({ runDir })).rejects.toThrow(/this run was recorded before scenario runs kept their settings \(no run-settings\.json\).*re-record it/);
  });

  it('refuses a cassette of another scenario', async () => {
    const runDir = await record();
    const other = path.join(folder, 'other.scenario.yaml');
    await writeFile(other, (await readFile(scenarioFile, 'utf8')).replace(/^name: .*$/m, 'name: Another scenario'));
    await expect(replayScenarioRun({ runDir, scenario: other })).rejects.toThrow(/recorded for scenario "Billing conversation.*", not "Another scenario": this cassette belongs to another run/);
  });
});

describe('replayScenarioRun of a matrix cell: its parameters set again, its repeat index in every key', () => {
  let folder: string;
  let server: FakeLlmServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it('reproduces the second repeat of a combination offline', async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'scenario-replay-matrix-'));
    server = await startScenarioLlm({ agent: (body) => `Hello! You asked: ${userMessages(body).at(-1)}` });
    const summary = await runMatrix(path.join(SCENARIOS, 'greeting.matrix.yaml'), { llm: llmSettings(server), outDir: folder, filter: 'Good morning', seed: 5 });
    await server.close();
    server = undefined;
    const cell = summary.runs.find((run) => run.repeat === 2 && run.passed);
    expect(cell?.result_file).toBeDefined();
    const runDir = path.dirname(cell!.result_file!);
    const settings = JSON.parse(await readFile(path.join(runDir, 'run-settings.json'), 'utf8')) as { matrix: { parameters: Record<string, unknown> }; repeat_index: number };
    expect(settings.repeat_index).toBe(1);
    expect(settings.matrix.parameters['run[0].input']).toBe('Good morning');
    const replayed = await replayScenarioRun({ runDir });
    expect(replayed.divergence).toBeUndefined();
    expect(replayed.replay.result.steps[0]?.input).toBe('Good morning');
    expect(replayed.comparison).toMatchObject({ isSame: true, verdict: { original: 'PASSED', replay: 'PASSED' } });
  });
});
