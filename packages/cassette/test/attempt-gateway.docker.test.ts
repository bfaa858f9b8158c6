// The attempt gateway with the real thing: a `--network none` Docker sandbox, the gateway's
// socket mounted read-only into it, the loopback forwarder inside, real HTTP from a Python
// client in the sandbox, and the fake LLM server as the upstream on the host's loopback.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeLlmServer, type FakeLlmServer } from '@agentbench/fake-llm-server';
import { createSandbox, type Sandbox } from '@agentbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { REACH_PROBE_HEAD } from '../../../test-support/reach-probe.js';
import { SANDBOX_KEY_SEARCH } from '../../../test-support/sandbox-key-search.js';
import { UpstreamUnreachableError } from '../src/errors/upstream-unreachable-error.js';
import type { AttemptGatewayOptions } from '../src/proxy/attempt-gateway.js';
import { GATEWAY_PLACEHOLDER_KEY } from '../src/proxy/start-loopback-forwarder.js';
import { readCassette } from '../src/read-cassette.js';
import { fakeServerUpstreams, gatewaySandboxes, type GatewaySandbox } from './helpers/gateway-sandboxes.js';

const skipReason = dockerSkipReason('attempt-gateway.docker.test.ts');
const title = skipReason === undefined ? 'the attempt gateway in a Docker sandbox' : `the attempt gateway in a Docker sandbox (skipped: ${skipReason})`;

const OPENAI_KEY = 'sk-attempt-gateway-openai-5f1c9e';
const ANTHROPIC_KEY = 'sk-attempt-gateway-anthropic-a83d20';
const RUN_LABEL = { 'dev.agentbench.run-id': 'cassette-attempt-gateway-test' };

/** A Python client run inside the sandbox: POSTs each `[path, body]` in turn, prints `[{status, error, body}]` as JSON (a stream's body as its raw text). */
const CLIENT = String.raw`
import json, sys, urllib.error, urllib.request
origin, key, answers = sys.argv[1], sys.argv[2], []
for path, body in json.loads(sys.argv[3]):
    # Each API's own credential header, with the placeholder key the agent holds.
    if path.endswith('/messages'):
        headers = {'x-api-key': key, 'anthropic-version': '2023-06-01'}
    else:
        headers = {'authorization': 'Bearer ' + key}
    request = urllib.request.Request(origin + path, data=json.dumps(body).encode(), headers=dict(headers, **{'content-type': 'application/json'}), method='POST')
    try:
        answer = urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as error:
        answer = error
    answers.append({'status': answer.status, 'error': answer.headers.get('x-agentbench-error'), 'body': answer.read().decode()})
print(json.dumps(answers))
`;


const REQUESTS = [
  { api: 'Chat Completions', path: '/v1/chat/completions', body: { model: 'fake-model', messages: [{ role: 'user', content: 'Fix the bug' }] } },
  { api: 'Responses', path: '/v1/responses', body: { model: 'fake-model', input: 'Fix the bug' } },
  { api: 'Anthropic Messages', path: '/v1/messages', body: { model: 'claude-fake', max_tokens: 1024, messages: [{ role: 'user', content: 'Fix the bug' }] } },
];

interface Answer {
  status: number;
  error: string | null;
  body: string;
}

/** Sends the requests in order from one Python process in the sandbox (a process start costs more than the requests). */
async function askFromSandbox(sandbox: Sandbox, port: number, requests: readonly (readonly [string, unknown])[]): Promise<Answer[]> {
  const result = await sandbox.exec(['python3', '-I', '-c', CLIENT, `http://127.0.0.1:${port}`, GATEWAY_PLACEHOLDER_KEY, JSON.stringify(requests)]);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Answer[];
}

/** Each API whole, then streamed. */
const EVERY_API = REQUESTS.flatMap((request) => [false, true].map((isStream) => [request.path, { ...request.body, stream: isStream }] as const));

describe.skipIf(skipReason !== undefined)(title, () => {
  let folder: string;
  let upstream: FakeLlmServer | undefined;
  const gateways = gatewaySandboxes();

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'attempt-gateway-'));
  });
  afterAll(async () => {
    await gateways.closeAll();
    await upstream?.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** A gateway, a `--network none` sandbox with its socket folder mounted, and the forwarder started in it. */
  async function attempt(name: string, upstream: FakeLlmServer, options: Partial<AttemptGatewayOptions> = {}): Promise<GatewaySandbox<Sandbox>> {
    const cassette = path.join(folder, `${name}.jsonl`);
    return gateways.open({ cassette, upstream: fakeServerUpstreams(upstream.url, { openai: OPENAI_KEY, anthropic: ANTHROPIC_KEY }), ...options }, (mount) =>
      createSandbox('docker', { hasNetwork: false, readOnlyMounts: [mount], labels: RUN_LABEL }),
    );
  }

  it('reaches the upstream through the forwarder for each wire API, whole and streamed, with the key added on the host; the sandbox reaches nothing else and holds no key; a stopped upstream is an infrastructure failure; the cassette replays offline', async () => {
    upstream = await startFakeLlmServer({ script: () => ({ text: 'Reading it first.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/calc.py' } }] }) });
    const { gateway, sandbox, port, environment } = await attempt('recorded', upstream);
    expect(environment).toEqual({ OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: GATEWAY_PLACEHOLDER_KEY, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: GATEWAY_PLACEHOLDER_KEY });
    const live = await askFromSandbox(sandbox, port, EVERY_API);
    live.forEach((answer, index) => {
      const isStream = index % 2 === 1;
      expect(answer.status, `${REQUESTS[Math.floor(index / 2)]!.api}${isStream ? ', streamed' : ''}`).toBe(200);
      expect(answer.body).toContain('Reading');
      if (isStream) expect(answer.body).toMatch(/^(event: \S+\n)?data: /m);
      else expect(JSON.parse(answer.body)).toBeTypeOf('object');
    });
    expect(upstream.requests.map((request) => request.path)).toEqual(REQUESTS.flatMap((request) => [request.path, request.path]));
    for (const request of upstream.requests) {
      const sent = JSON.stringify(request.headers);
      expect(sent).toContain(request.path === '/v1/messages' ? ANTHROPIC_KEY : `Bearer ${OPENAI_KEY}`);
      expect(sent).not.toContain(GATEWAY_PLACEHOLDER_KEY);
    }
    expect(gateway.outcome()).toMatchObject({ usage: { requests: 6 }, budgetStop: undefined, infrastructureFailure: undefined, exchangeCount: 6 });

    // No network but the forwarder: one interface (lo), no route, no name resolution, and the host's loopback is not the sandbox's.
    const isolation = await sandbox.exec(['python3', '-I', '-c', String.raw`${REACH_PROBE_HEAD}
print('interfaces', sorted(os.listdir('/sys/class/net')))
print('routes', len(open('/proc/net/route').read().splitlines()) - 1)
attempt('dns', lambda: socket.getaddrinfo('registry.npmjs.org', 443))
attempt('tcp-test-net', lambda: socket.create_connection(('192.0.2.1', 80), timeout=5))
attempt('tcp-host-port', lambda: socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=5))
attempt('tcp-forwarder', lambda: socket.create_connection(('127.0.0.1', int(sys.argv[2])), timeout=5))
`, String(upstream.port), String(port)]);
    expect(isolation.stdout.split('\n')).toEqual([
      "interfaces ['lo']",
      'routes 0',
      'dns failed gaierror',
      'tcp-test-net failed OSError',
      'tcp-host-port failed ConnectionRefusedError',
      'tcp-forwarder reached',
      '',
    ]);

    // The keys are in no variable of any process and no file the sandbox can read; the mounted folder holds the socket alone.
    // Each key goes in as two halves joined in memory, so this search's own command line holds neither.
    const halves = [OPENAI_KEY, ANTHROPIC_KEY].flatMap((key) => [key.slice(0, 12), key.slice(12)]);
    const search = await sandbox.exec(['python3', '-I', '-c', SANDBOX_KEY_SEARCH, ...halves], { timeoutSec: 240 });
    expect(search.stdout).toMatch(/^searched \d{4,} files$/m);
    expect(search.stdout.split('\n')[0]).toBe('found []');
    expect((await sandbox.exec(['ls', '-A', '/run/agentbench-gateway'])).stdout).toBe('gateway.sock\n');
    expect(await readdir(gateway.mount.hostPath)).toEqual(['gateway.sock']);
    // Read-only: the agent cannot replace the socket.
    expect((await sandbox.exec(['sh', '-c', 'touch /run/agentbench-gateway/x 2>&1'])).stdout).toMatch(/Read-only file system/);

    // The upstream stops mid-attempt: the agent sees a 502 and the run driver an infrastructure failure.
    const stoppedUpstream = upstream;
    await stoppedUpstream.close();
    const [down] = await askFromSandbox(sandbox, port, [[REQUESTS[0]!.path, REQUESTS[0]!.body]]);
    expect(down).toMatchObject({ status: 502, error: 'upstream_unreachable' });
    const outcome = await gateway.close();
    expect(outcome.infrastructureFailure).toBeInstanceOf(UpstreamUnreachableError);
    expect(outcome.infrastructureFailure?.message).toContain(stoppedUpstream.url);
    expect(outcome.budgetStop).toBeUndefined();
    await expect(readdir(gateway.mount.hostPath)).rejects.toThrow(/ENOENT/);

    // Replay with the upstream gone, in a new sandbox: the same answers, byte for byte, and the same outcome.
    const cassette = await readCassette(path.join(folder, 'recorded.jsonl'));
    expect(cassette.exchanges).toHaveLength(7);
    expect(JSON.stringify(cassette)).not.toContain(OPENAI_KEY);
    const replay = await attempt('replayed', stoppedUpstream, { mode: 'replay', replayFrom: cassette });
    const replayed = await askFromSandbox(replay.sandbox, replay.port, [...EVERY_API, [REQUESTS[0]!.path, REQUESTS[0]!.body]]);
    expect(replayed).toEqual([...live, down]);
    const replayOutcome = await replay.gateway.close();
    expect(replayOutcome.infrastructureFailure).toBeInstanceOf(UpstreamUnreachableError);
    expect(replayOutcome.usage).toEqual(outcome.usage);
    expect(replay.gateway.proxy.divergence).toBeUndefined();
    // Two sandboxes, 9 commands and a read of every file of the image: about a minute on a loaded two-core machine.
  }, 300_000);

  it('a budget of 1 request: the 2nd gets the budget error in its dialect, the stop reason is recorded, and nothing more goes upstream', async () => {
    upstream = await startFakeLlmServer({ script: () => ({ text: 'Reading it first.' }) });
    const { gateway, sandbox, port } = await attempt('budget', upstream, { budget: { maxRequests: 1 } });
    const request = REQUESTS[2]!;
    const [first, refused] = await askFromSandbox(sandbox, port, [[request.path, request.body], [request.path, { ...request.body, stream: true }]]);
    expect(first?.status).toBe(200);
    expect(refused).toMatchObject({ status: 400, error: 'budget_exceeded' });
    expect(JSON.parse(refused!.body)).toEqual({ type: 'error', error: { type: 'budget_exceeded', message: expect.stringMatching(/requests budget is spent/) } });
    expect(upstream.requests).toHaveLength(1);
    const outcome = await gateway.close();
    expect(outcome.budgetStop).toMatchObject({ budget: 'requests', stopReason: 'MAX_STEPS', limit: 1 });
    expect(outcome.infrastructureFailure).toBeUndefined();
    const exchanges = (await readCassette(path.join(folder, 'budget.jsonl'))).exchanges;
    expect(exchanges.at(-1)).toMatchObject({ response: { status: 400 }, budget_stop: { budget: 'requests', stop_reason: 'MAX_STEPS' } });
  }, 120_000);
});
