import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeLlmServer, type FakeLlmServer } from '@agentbench/fake-llm-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../../../test-support/closed-port.js';
import { UpstreamUnreachableError } from '../errors/upstream-unreachable-error.js';
import { readCassette } from '../read-cassette.js';
import { SANDBOX_GATEWAY_FOLDER, startAttemptGateway, type AttemptGateway } from './attempt-gateway.js';
import { GATEWAY_PLACEHOLDER_KEY, type SandboxCommandRunner } from './start-loopback-forwarder.js';

/** One Chat Completions request over the gateway's socket, as the forwarder sends it. */
function askOverSocket(socketPath: string, target = { method: 'POST', path: '/v1/chat/completions' }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = target.method !== 'POST' ? '' : JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'Fix the bug' }] });
    const request = httpRequest({ socketPath, path: target.path, method: target.method, headers: { 'content-type': 'application/json', authorization: `Bearer ${GATEWAY_PLACEHOLDER_KEY}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('startAttemptGateway', () => {
  let folder: string;
  let upstream: FakeLlmServer | undefined;
  let gateway: AttemptGateway | undefined;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'attempt-gateway-unit-'));
  });
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
    await upstream?.close();
    upstream = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it('listens on a socket alone, in a private folder it removes at close, and reports usage and the budget stop', async () => {
    upstream = await startFakeLlmServer({ script: () => ({ text: 'Reading it.' }) });
    gateway = await startAttemptGateway({ cassette: path.join(folder, 'cassette.jsonl'), upstream: { openai: { baseUrl: upstream.url, apiKey: 'sk-unit' } }, budget: { maxRequests: 1 } });
    expect(gateway.mount.sandboxPath).toBe(SANDBOX_GATEWAY_FOLDER);
    expect(gateway.socketPath).toBe(path.join(gateway.mount.hostPath, 'gateway.sock'));
    expect((await stat(gateway.mount.hostPath)).mode & 0o777).toBe(0o700);
    expect((await stat(gateway.socketPath)).mode & 0o777).toBe(0o600);
    expect(gateway.proxy.port).toBe(0);
    expect((await askOverSocket(gateway.socketPath)).status).toBe(200);
    expect(upstream.requests[0]?.headers['authorization']).toBe('Bearer sk-unit');
    const refused = await askOverSocket(gateway.socketPath);
    expect(refused.status).toBe(400);
    // Both exchanges, read back from the cassette while the gateway is still open (the runner's events.jsonl uses them).
    expect((await gateway.recordedExchanges()).map((exchange) => [exchange.endpoint, exchange.budget_stop?.stop_reason])).toEqual([['/chat/completions', undefined], ['/chat/completions', 'MAX_STEPS']]);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'budget_exceeded' } });
    const outcome = await gateway.close();
    expect(outcome).toMatchObject({ usage: { requests: 1 }, budgetStop: { budget: 'requests', stopReason: 'MAX_STEPS' }, infrastructureFailure: undefined, exchangeCount: 2 });
    await expect(stat(gateway.mount.hostPath)).rejects.toThrow(/ENOENT/);
    expect((await readCassette(path.join(folder, 'cassette.jsonl'))).exchanges.at(-1)?.budget_stop?.stop_reason).toBe('MAX_STEPS');
  });

  it('answers model API requests only: the key it adds serves no file upload, batch or other endpoint', async () => {
    upstream = await startFakeLlmServer({ script: () => ({ text: 'Reading it.' }) });
    gateway = await startAttemptGateway({ cassette: path.join(folder, 'cassette.jsonl'), upstream: { openai: { baseUrl: upstream.url, apiKey: 'sk-unit' } } });
    for (const target of [{ method: 'POST', path: '/v1/files' }, { method: 'GET', path: '/v1/batches' }, { method: 'DELETE', path: '/v1/models/ft-model' }, { method: 'GET', path: '/v1/chat/completions' }]) {
      const answer = await askOverSocket(gateway.socketPath, target);
      expect(answer.status, `${target.method} ${target.path}: ${answer.body}`).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'not_found', message: expect.stringContaining('not a model API request') } });
    }
    expect(upstream.requests).toEqual([]);
    expect((await askOverSocket(gateway.socketPath, { method: 'GET', path: '/v1/models' })).status).toBe(200);
    expect((await askOverSocket(gateway.socketPath)).status).toBe(200);
    expect(upstream.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
  });

  it('an upstream that refuses is an infrastructure failure naming it; a later answer clears it', async () => {
    const downUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    gateway = await startAttemptGateway({ cassette: path.join(folder, 'cassette.jsonl'), upstream: { openai: { baseUrl: downUrl, apiKey: 'sk-unit' } } });
    expect((await askOverSocket(gateway.socketPath)).status).toBe(502);
    const failure = gateway.outcome().infrastructureFailure;
    expect(failure).toBeInstanceOf(UpstreamUnreachableError);
    expect(failure?.message).toContain(downUrl);
    await gateway.close();

    upstream = await startFakeLlmServer({ script: [{ status: 503 }, { text: 'back' }] });
    gateway = await startAttemptGateway({ cassette: path.join(folder, 'second.jsonl'), upstream: { openai: { baseUrl: upstream.url, apiKey: 'sk-unit' } } });
    expect((await askOverSocket(gateway.socketPath)).status).toBe(503);
    expect(gateway.outcome().infrastructureFailure).toBeInstanceOf(UpstreamUnreachableError);
    expect((await askOverSocket(gateway.socketPath)).status).toBe(200);
    expect(gateway.outcome().infrastructureFailure).toBeUndefined();
  });

  it('starts the forwarder with the mounted socket path and gives the agent the forwarder URLs and a placeholder key; a forwarder that cannot start says why', async () => {
    gateway = await startAttemptGateway({ cassette: path.join(folder, 'cassette.jsonl'), upstream: { openai: { baseUrl: 'http://127.0.0.1:9/v1' } } });
    const commands: string[][] = [];
    const sandbox: SandboxCommandRunner = {
      exec: async (command) => {
        commands.push(command);
        return { exitCode: 0, stdout: '41234\n', stderr: '' };
      },
    };
    const forwarder = await gateway.startForwarder(sandbox);
    expect(commands[0]?.slice(0, 4)).toEqual(['python3', '-I', '-S', '-c']);
    expect(commands[0]?.slice(5)).toEqual([`${SANDBOX_GATEWAY_FOLDER}/gateway.sock`, '0']);
    expect(forwarder).toEqual({
      port: 41234,
      environment: { OPENAI_BASE_URL: 'http://127.0.0.1:41234/v1', OPENAI_API_KEY: GATEWAY_PLACEHOLDER_KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:41234', ANTHROPIC_API_KEY: GATEWAY_PLACEHOLDER_KEY },
    });
    const failing: SandboxCommandRunner = { exec: async () => ({ exitCode: 3, stdout: '', stderr: 'agentbench forwarder: cannot connect to the gateway socket /run/agentbench-gateway/gateway.sock: Operation not permitted\n' }) };
    await expect(gateway.startForwarder(failing)).rejects.toThrow(/cannot start the loopback forwarder in the sandbox: .*Operation not permitted \(under gVisor the sandbox cannot connect to the gateway's unix socket/);
    await expect(gateway.startForwarder(sandbox, { port: 70_000 })).rejects.toThrow(/port: expected a TCP port/);
  });
});
