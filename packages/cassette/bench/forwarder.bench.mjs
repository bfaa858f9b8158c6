#!/usr/bin/env node
// Benchmark of the whole path an installed agent's model request takes: from inside a
// `--network none` Docker sandbox, through the loopback forwarder (127.0.0.1:PORT), the mounted
// unix socket and the attempt gateway (recording, adding the key, counting usage against a
// budget), to the fake LLM server. The baseline, measured in the same run in alternating
// batches, is the same Python client on the host calling the fake server directly. The
// difference is what the forwarder and gateway add; the target (issue 25) is under 2 ms per
// model request. Reports, always exits 0, leaves nothing behind.
//
//   node packages/cassette/bench/forwarder.bench.mjs [--runs 100] [--rounds 4]
//
// Imports the built packages (../dist, @agentbench/sandbox's and @agentbench/fake-llm-server's dist).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startFakeLlmServer } from '@agentbench/fake-llm-server';
import { createSandbox } from '@agentbench/sandbox';
import { isSkippedWithoutDocker, percentile, recordFigure, sized, wholeNumberArgument } from '../../../scripts/bench-figures.mjs';
import { startAttemptGateway } from '../dist/index.js';

const bench = 'forwarder';
const targetOverheadMs = 2;
const runs = sized(wholeNumberArgument('runs', 100), 2);
const rounds = sized(wholeNumberArgument('rounds', 4), 1);

// One persistent connection (as agents' HTTP clients keep one), `runs` streamed requests of one
// API after 5 warm-ups; prints each request's milliseconds, body read to the end.
const CLIENT = String.raw`
import http.client, json, sys, time
host, port, path, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
body = sys.argv[5].encode()
headers = {'content-type': 'application/json', 'authorization': 'Bearer placeholder'}
if path.endswith('/messages'):
    headers = {'content-type': 'application/json', 'x-api-key': 'placeholder', 'anthropic-version': '2023-06-01'}
connection = http.client.HTTPConnection(host, port, timeout=30)
times = []
for index in range(5 + runs):
    started = time.perf_counter()
    connection.request('POST', path, body=body, headers=headers)
    answer = connection.getresponse()
    answer.read()
    if answer.status != 200:
        sys.exit('HTTP %d on %s' % (answer.status, path))
    if index >= 5:
        times.append((time.perf_counter() - started) * 1000)
print(json.dumps(times))
`;

const messages = [{ role: 'user', content: 'The test tests/test_calc.py::test_add fails. Fix the bug in src/calc.py.' }];
const cases = [
  { name: 'chat completions (stream)', path: '/v1/chat/completions', body: { model: 'fake-model', messages, stream: true } },
  { name: 'responses (stream)', path: '/v1/responses', body: { model: 'fake-model', input: messages, stream: true } },
  { name: 'anthropic messages (stream)', path: '/v1/messages', body: { model: 'claude-fake', max_tokens: 1024, messages, stream: true } },
];

if (!isSkippedWithoutDocker(bench)) {
  const folder = await mkdtemp(join(tmpdir(), 'forwarder-bench-'));
  const upstream = await startFakeLlmServer({ script: () => ({ text: 'I will read the file first.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/calc.py' } }] }) });
  const gateway = await startAttemptGateway({
    cassette: join(folder, 'cassette.jsonl'),
    upstream: { openai: { baseUrl: upstream.url, apiKey: 'sk-bench' }, anthropic: { baseUrl: upstream.url.replace(/\/v1$/, ''), apiKey: 'sk-bench' } },
    budget: { maxRequests: 1_000_000, maxTokens: 1_000_000_000 },
  });
  let sandbox;
  const rows = [];
  try {
    sandbox = await createSandbox('docker', { hasNetwork: false, readOnlyMounts: [gateway.mount], labels: { 'dev.agentbench.run-id': 'cassette-forwarder-bench' } });
    const forwarder = await gateway.startForwarder(sandbox);
    for (const testCase of cases) {
      const direct = [];
      const through = [];
      const argv = (port) => ['-I', '-S', '-c', CLIENT, '127.0.0.1', String(port), testCase.path, String(runs), JSON.stringify(testCase.body)];
      for (let round = 0; round < rounds; round += 1) {
        // Alternating batches, so both sides see the same machine load.
        const host = await promisify(execFile)('python3', argv(upstream.port), { maxBuffer: 1 << 20 });
        direct.push(...JSON.parse(host.stdout));
        const inside = await sandbox.exec(['python3', ...argv(forwarder.port)], { timeoutSec: 300 });
        if (inside.exitCode !== 0) throw new Error(`${testCase.name} in the sandbox: ${inside.stderr}`);
        through.push(...JSON.parse(inside.stdout));
      }
      rows.push({ name: testCase.name, direct: percentile(direct, 0.5), through: percentile(through, 0.5), directQuartile: percentile(direct, 0.25), throughQuartile: percentile(through, 0.25) });
    }
  } finally {
    await sandbox?.dispose();
    await gateway.close();
    await upstream.close();
    await rm(folder, { recursive: true, force: true });
  }

  console.log(`sandbox -> forwarder -> gateway -> fake server, per request (${runs * rounds} runs in ${rounds} alternating batches; median and lower quartile; target < ${targetOverheadMs} ms added)`);
  console.log('  request                          direct from host ms   via forwarder+gateway ms   added ms (median / p25)');
  const cell = (median, quartile) => `${median.toFixed(2)} / ${quartile.toFixed(2)}`;
  for (const row of rows) {
    const added = row.through - row.direct;
    recordFigure(bench, { name: `${row.name} from the sandbox via forwarder and gateway, median`, value: row.through, unit: 'ms', baseline: { name: 'direct call to the fake server from the host', value: row.direct }, target: `< ${targetOverheadMs} ms added` });
    console.log(
      `  ${row.name.padEnd(32)} ${cell(row.direct, row.directQuartile).padStart(19)}   ${cell(row.through, row.throughQuartile).padStart(24)}   ${cell(added, row.throughQuartile - row.directQuartile).padStart(13)}${added < targetOverheadMs ? '' : '  (median over target)'}`,
    );
  }
}
