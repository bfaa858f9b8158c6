#!/usr/bin/env node
// Benchmark of the model gateway's overhead: per wire API (Chat Completions, Responses,
// Anthropic Messages), streamed and not, the median time of a model request sent through the
// gateway (recording to a cassette, adding the key, counting usage against a budget) against
// the median of the same request sent directly to the fake LLM server, measured in the same run,
// interleaved. The difference is the gateway's own cost; the target (issue 25) is under 2 ms per
// model request. Reports, always exits 0, leaves nothing behind.
//
//   node packages/cassette/bench/gateway.bench.mjs [--runs 200]
//
// Imports the built packages (../dist/index.js and @agentbench/fake-llm-server's dist).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlmServer } from '@agentbench/fake-llm-server';
import { recordFigure } from '../../../scripts/bench-figures.mjs';
import { startModelProxy } from '../dist/index.js';

const targetOverheadMs = 2;
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag === -1 ? 200 : Number(process.argv[runsFlag + 1]);
const warmups = 20;

function quantile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}
const median = (values) => quantile(values, 0.5);
// On a loaded machine the median carries other processes' time slices; the lower quartile is less disturbed.
const lowerQuartile = (values) => quantile(values, 0.25);

const reply = { text: 'I will read the file first, then fix the bug.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/calc.py' } }] };
const messages = [
  { role: 'user', content: 'The test tests/test_calc.py::test_add fails. Fix the bug in src/calc.py.' },
];
const cases = [
  { name: 'chat completions', path: '/v1/chat/completions', body: { model: 'fake-model', messages } },
  { name: 'responses', path: '/v1/responses', body: { model: 'fake-model', input: messages } },
  { name: 'anthropic messages', path: '/v1/messages', body: { model: 'claude-fake', max_tokens: 1024, messages } },
  // The size of a Claude Code turn: a long system prompt, tool schemas, a conversation with tool output (~120 KB).
  { name: 'anthropic, 120 KB request', path: '/v1/messages', body: largeRequest() },
];

function largeRequest() {
  const tools = Array.from({ length: 20 }, (_, index) => ({ name: `tool_${index}`, description: 'Runs a command in the workspace and returns its output. '.repeat(40), input_schema: { type: 'object', properties: { command: { type: 'string' } } } }));
  const turns = Array.from({ length: 30 }, (_, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: `step ${index}: 3 passed in 0.03s at 2025-01-01T00:00:00Z `.repeat(20) }));
  return { model: 'claude-fake', max_tokens: 32000, system: 'You are an agent that fixes bugs in this repository. '.repeat(800), tools, messages: turns };
}

const folder = await mkdtemp(join(tmpdir(), 'gateway-bench-'));
const upstream = await startFakeLlmServer({ script: () => reply });
const origin = upstream.url.replace(/\/v1$/, '');
const gateway = await startModelProxy({
  mode: 'record',
  cassette: join(folder, 'cassette.jsonl'),
  upstream: { openai: { baseUrl: upstream.url, apiKey: 'sk-bench' }, anthropic: { baseUrl: origin, apiKey: 'sk-bench' } },
  budget: { maxRequests: 1_000_000, maxTokens: 1_000_000_000 },
});
const gatewayOrigin = gateway.url.replace(/\/v1$/, '');

async function timedRequest(base, path, body) {
  const started = performance.now();
  const answer = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`${path}: HTTP ${answer.status}`);
  return performance.now() - started;
}

const rows = [];
try {
  for (const testCase of cases) {
    for (const isStream of [false, true]) {
      const body = { ...testCase.body, stream: isStream };
      const direct = [];
      const through = [];
      for (let index = 0; index < warmups + runs; index += 1) {
        // Interleaved, so both see the same machine load.
        const directMs = await timedRequest(origin, testCase.path, body);
        const throughMs = await timedRequest(gatewayOrigin, testCase.path, body);
        if (index >= warmups) {
          direct.push(directMs);
          through.push(throughMs);
        }
      }
      rows.push({
        name: `${testCase.name}${isStream ? ' (stream)' : ''}`,
        direct: median(direct),
        through: median(through),
        directQuartile: lowerQuartile(direct),
        throughQuartile: lowerQuartile(through),
      });
    }
  }
} finally {
  await gateway.close();
  await upstream.close();
  await rm(folder, { recursive: true, force: true });
}

console.log(`model gateway overhead per request (${runs} runs, interleaved; median and lower quartile; target < ${targetOverheadMs} ms added)`);
console.log('  request                              direct ms      via gateway ms    added ms (median / p25)');
const cell = (median, quartile) => `${median.toFixed(2)} / ${quartile.toFixed(2)}`;
for (const row of rows) {
  const added = row.through - row.direct;
  const addedQuartile = row.throughQuartile - row.directQuartile;
  recordFigure('gateway', { name: `${row.name} via the gateway, median`, value: row.through, unit: 'ms', baseline: { name: 'direct call to the fake server', value: row.direct }, target: `< ${targetOverheadMs} ms added` });
  console.log(
    `  ${row.name.padEnd(36)} ${cell(row.direct, row.directQuartile).padStart(13)}   ${cell(row.through, row.throughQuartile).padStart(15)}   ${cell(added, addedQuartile).padStart(13)}${added < targetOverheadMs ? '' : '  (median over target)'}`,
  );
}
