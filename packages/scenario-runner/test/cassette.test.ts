import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readCassette } from '@agentbench/cassette';
import type { FakeLlmServer } from '@agentbench/fake-llm-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAgentOption } from '../src/agents/parse-agent-option.js';
import { runScenario } from '../src/run/run-scenario.js';
import { judgeAnswer, llmSettings, SCENARIOS, startScenarioLlm, userMessages } from './helpers/scenario-llm.js';

describe('a scenario run writes cassette.jsonl: every exchange of the agent, the simulator and the judge', () => {
  let server: FakeLlmServer | undefined;
  let outDir: string;
  beforeEach(async () => {
    outDir = await mkdtemp(path.join(tmpdir(), 'scenario-cassette-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(outDir, { recursive: true, force: true });
  });

  it('records each role under its own name and steps', async () => {
    let simulatorCalls = 0;
    server = await startScenarioLlm({
      agent: (body) => (userMessages(body).length === 1 ? 'Could you give me your order number?' : 'I have refunded the duplicate charge on order 1234.'),
      simulator: () => (++simulatorCalls === 1 ? 'Sure, it is order 1234.' : 'Thank you, that is resolved now!'),
      judge: () => judgeAnswer({ judgment: 'yes', confidence: 0.95, reasoning: 'Refund issued.' }),
    });
    const result = await runScenario(path.join(SCENARIOS, 'conversation-satisfaction.scenario.yaml'), { llm: llmSettings(server), outDir });
    expect(result.errors).toEqual([]);
    const cassette = await readCassette(path.join(outDir, 'cassette.jsonl'));
    expect(cassette.header).toMatchObject({ scenario_id: result.scenario.name, task_id: null, repeat_index: 0 });
    const byRole = (role: string) => cassette.exchanges.filter((exchange) => exchange.role === role);
    expect(byRole('agent').map((exchange) => [exchange.step, exchange.model])).toEqual([[1, 'agent-model'], [2, 'agent-model'], [3, 'agent-model']]);
    expect(byRole('simulator').map((exchange) => exchange.step)).toEqual([1, 2]);
    expect(byRole('judge').length).toBeGreaterThan(0);
    expect(byRole('judge').every((exchange) => exchange.model === 'judge-model' && exchange.response.status === 200)).toBe(true);
    // Every request the fake server saw went through the proxy.
    expect(cassette.exchanges).toHaveLength(server.requests.length);
  });

  it('records an http agent through the proxy, its base_url the upstream', async () => {
    let simulatorCalls = 0;
    server = await startScenarioLlm({
      agent: (body) => (userMessages(body).length === 1 ? 'Could you give me your order number?' : 'I have refunded the duplicate charge on order 1234.'),
      simulator: () => (++simulatorCalls === 1 ? 'Sure, it is order 1234.' : 'Thank you, that is resolved now!'),
      judge: () => judgeAnswer({ judgment: 'yes', confidence: 0.95, reasoning: 'Refund issued.' }),
    });
    const settings = llmSettings(server);
    // The agent's own endpoint is only in the http spec: the settings' agent URL points nowhere.
    const result = await runScenario(path.join(SCENARIOS, 'conversation-satisfaction.scenario.yaml'), {
      llm: { ...settings, agent: { ...settings.agent, baseURL: 'http://127.0.0.1:9/v1' } },
      agent: parseAgentOption(`http:${server.url}`),
      outDir,
    });
    expect(result.errors).toEqual([]);
    const cassette = await readCassette(path.join(outDir, 'cassette.jsonl'));
    expect(cassette.exchanges.filter((exchange) => exchange.role === 'agent').map((exchange) => [exchange.step, exchange.response.status])).toEqual([[1, 200], [2, 200], [3, 200]]);
    expect(cassette.exchanges).toHaveLength(server.requests.length);
  });

  it('points a command agent at the proxy through OPENAI_BASE_URL', async () => {
    const result = await runScenario(path.join(SCENARIOS, 'greeting.scenario.yaml'), { agent: parseAgentOption('command:printenv OPENAI_BASE_URL'), outDir });
    expect(result.final_response).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/role\/agent\/v1\s*$/);
    expect((await readCassette(path.join(outDir, 'cassette.jsonl'))).header.scenario_id).toBe(result.scenario.name);
  });
});
