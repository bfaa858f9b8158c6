#!/usr/bin/env node
// `pnpm bench` part for @agentbench/scenario-runner, against the built package (run `pnpm build` first).
// Measures, with the fake OpenAI-compatible server on loopback (so model latency is ~0):
//   1. single-turn scenario throughput at --parallel 1 and 4 (scenarios per second, result files written);
//   2. the runner's own overhead per conversation turn: the conversation's wall time minus the time spent
//      waiting for the agent's and the simulator's answers (as the LLM client timed them), per turn
//      (median of 5 conversations of 20 turns). Target: under 10 ms per turn;
//   3. the cost of one mock matcher in the isolated script runner (worker + vm) next to a bare in-process vm.
// Prints a table with PASS/FAIL against the target; exits 0 whatever the timings (they vary by machine), 1 on
// an exception. --quick: every part once with tiny sizes (pnpm test runs it).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { startFakeLlmServer } from '@agentbench/fake-llm-server';
import { runScenario } from '../dist/index.js';
import { IsolatedScriptRunner } from '../dist/bench-entry.js';
import { recordFigure, sized } from '../../../scripts/bench-figures.mjs';

const TURN_OVERHEAD_TARGET_MS = 10;
const folder = await mkdtemp(path.join(tmpdir(), 'scenario-bench-'));
const server = await startFakeLlmServer({ script: (request) => (request.body.model === 'simulator' ? 'Tell me more, please.' : 'Hello! Here is my answer.') });
const llm = {
  agent: { baseURL: server.url, model: 'agent', maxRetries: 0 },
  simulator: { baseURL: server.url, model: 'simulator', maxRetries: 0 },
  judge: { baseURL: server.url, model: 'judge', noCache: true },
};

const singleTurn = path.join(folder, 'single.scenario.yaml');
await writeFile(
  singleTurn,
  ['name: Bench single turn', 'description: one input step', 'environment: { type: local }', 'run:', '  - input: Hello', '    evaluations: [{ type: string_contains, value: Hello }]', 'judgment: { strategy: all_pass }'].join('\n'),
);
const TURNS = sized(20, 2);
const conversation = path.join(folder, 'conversation.scenario.yaml');
await writeFile(
  conversation,
  [
    'name: Bench conversation',
    'description: a long conversation that never stops early',
    'environment: { type: local }',
    'run:',
    '  - input: Hello',
    '    conversation:',
    `      max_turns: ${TURNS}`,
    '      user_simulator: { persona: a curious user, objective: keep asking }',
    '      termination_conditions: [{ type: user_expresses_satisfaction, keywords: [never-said] }]',
    '      turn_evaluations: [{ type: string_contains, value: Hello }]',
    `      final_evaluations: [{ type: conversation_length, min_turns: ${TURNS} }]`,
    'judgment: { strategy: all_pass }',
  ].join('\n'),
);

async function throughput(parallel, runs) {
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < runs) {
        const index = next++;
        const result = await runScenario(singleTurn, { llm, outDir: path.join(folder, `p${parallel}-${index}`), seed: index });
        if (!result.passed) failures += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: runs / seconds, failures };
}

async function turnOverhead() {
  // Our overhead = the conversation's wall time minus the time spent waiting for the agent's and the
  // simulator's answers (each LLM response's own duration, as the client measured it), per turn.
  const samples = [];
  for (let index = 0; index < sized(5, 1); index += 1) {
    const result = await runScenario(conversation, { llm, writeResult: false, seed: index });
    const step = result.steps[0];
    if (!result.passed || step?.conversation === undefined) throw new Error(`the bench conversation did not pass: ${result.judgment.reason}`);
    const { agent, simulator } = result.metrics.per_role;
    const turns = step.conversation.turn_count;
    samples.push({
      perTurn: step.conversation.total_duration_ms / turns,
      llmPerTurn: (agent.llm_time_ms + simulator.llm_time_ms) / turns,
      overhead: (step.conversation.total_duration_ms - agent.llm_time_ms - simulator.llm_time_ms) / turns,
    });
  }
  samples.sort((left, right) => left.overhead - right.overhead);
  return samples[Math.floor(samples.length / 2)];
}

async function matcherCost() {
  const scope = { args: ['elizaos/eliza'], input: { labels: ['bug'], state: 'open' }, context: {} };
  const runner = new IsolatedScriptRunner();
  const calls = sized(300, 3);
  await runner.run({ kind: 'matcher', source: "input.labels.includes('bug')", scope, seed: 1, label: 'warm-up' });
  let started = performance.now();
  for (let index = 0; index < calls; index += 1) await runner.run({ kind: 'matcher', source: "input.labels.includes('bug')", scope, seed: index, label: 'bench' });
  const worker = (performance.now() - started) / calls;
  await runner.close();
  const script = new vm.Script("input.labels.includes('bug')");
  started = performance.now();
  for (let index = 0; index < calls; index += 1) {
    const context = vm.createContext({ input: structuredClone(scope.input) });
    script.runInContext(context, { timeout: 1000 });
  }
  const bare = (performance.now() - started) / calls;
  return { worker, bare };
}

const rows = [];
try {
  await throughput(1, sized(3, 1)); // warm-up: module loading, sql.js, first sandbox
  const serial = await throughput(1, sized(20, 2));
  const parallel = await throughput(4, sized(40, 4));
  rows.push(['single-turn scenarios/s, --parallel 1', serial.perSecond.toFixed(1), 'report', serial.failures === 0 ? 'ok' : `${serial.failures} failed`]);
  rows.push(['single-turn scenarios/s, --parallel 4', parallel.perSecond.toFixed(1), 'report', parallel.failures === 0 ? 'ok' : `${parallel.failures} failed`]);
  const turn = await turnOverhead();
  rows.push(['conversation turn, wall time (ms)', turn.perTurn.toFixed(2), 'report', '']);
  rows.push(['  of which waiting for agent + simulator (ms)', turn.llmPerTurn.toFixed(2), 'report', '']);
  rows.push(['runner overhead per turn (ms)', turn.overhead.toFixed(2), `< ${TURN_OVERHEAD_TARGET_MS}`, turn.overhead < TURN_OVERHEAD_TARGET_MS ? 'PASS' : 'FAIL']);
  const matcher = await matcherCost();
  rows.push(['mock matcher, worker + vm (ms/call)', matcher.worker.toFixed(3), 'report', '']);
  rows.push(['mock matcher, bare in-process vm (ms/call)', matcher.bare.toFixed(3), 'baseline', '']);
  if (serial.failures + parallel.failures > 0) throw new Error(`${serial.failures + parallel.failures} bench scenarios failed`);
  const bench = 'scenario';
  recordFigure(bench, { name: 'single-turn scenarios per second, --parallel 4', value: parallel.perSecond, unit: '1/s', baseline: { name: '--parallel 1', value: serial.perSecond } });
  recordFigure(bench, { name: 'runner overhead per conversation turn', value: turn.overhead, unit: 'ms', baseline: { name: 'turn wall time', value: turn.perTurn }, target: `< ${TURN_OVERHEAD_TARGET_MS} ms` });
  recordFigure(bench, { name: 'mock matcher, worker + vm, per call', value: matcher.worker, unit: 'ms', baseline: { name: 'bare in-process vm', value: matcher.bare } });
} finally {
  await server.close();
  await rm(folder, { recursive: true, force: true });
}

const widths = [46, 10, 10, 12];
const line = (cells) => cells.map((cell, index) => String(cell).padEnd(widths[index])).join(' ');
console.log(line(['scenario-runner', 'value', 'target', 'verdict']));
for (const row of rows) console.log(line(row));
