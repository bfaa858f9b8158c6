// Codex CLI for real, inside a `--network none` Docker sandbox: installed from npm into the host
// cache, mounted read-only, reaching the model only through the attempt gateway's socket and the
// loopback forwarder, with @agentbench/fake-llm-server as the upstream on the host.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAttemptGateway, type AttemptGateway } from '@agentbench/cassette';
import { startFakeLlmServer, type FakeLlmServer } from '@agentbench/fake-llm-server';
import type { DockerSandbox } from '@agentbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDockerTestContext } from '../../sandbox/test/helpers/docker-test-context.js';
import { findAgentDefinition } from '../src/definition/list-agent-definitions.js';
import { installAgent } from '../src/install/install-agent.js';
import { buildInstruction } from '../src/instruction/build-instruction.js';
import { runInstalledAgent } from '../src/run/run-installed-agent.js';

const context = await useDockerTestContext('codex-through-gateway.docker.test.ts');
const describeDocker = context.skipReason === undefined ? describe : describe.skip;
const UPSTREAM_KEY = 'sk-installed-agents-test-7d41';

describeDocker('codex in a sandbox, scripted through the gateway', () => {
  let folder: string;
  let upstream: FakeLlmServer;
  let gateway: AttemptGateway;
  let sandbox: DockerSandbox;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'installed-agents-codex-'));
    upstream = await startFakeLlmServer({ script: ['The tests pass now; nothing left to do.'] });
    gateway = await startAttemptGateway({ cassette: path.join(folder, 'cassette.jsonl'), upstream: { openai: { baseUrl: upstream.url, apiKey: UPSTREAM_KEY } } });
  });
  afterAll(async () => {
    await sandbox?.dispose();
    await gateway?.close();
    await upstream?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('sends its instruction to the Responses API through the forwarder and prints its --json events', async () => {
    const definition = await findAgentDefinition('codex');
    const installation = await installAgent(definition);
    sandbox = await context.createSandbox({ hasNetwork: false, readOnlyMounts: [gateway.mount, ...installation.mounts] });
    const forwarder = await gateway.startForwarder(sandbox);
    const instruction = await buildInstruction({ task: { id: 'toy', run: { command: 'pytest -q' }, environment: { workdir: sandbox.workdir } } });
    const run = await runInstalledAgent({
      sandbox,
      definition,
      installation,
      instruction: instruction.text,
      baseUrl: `http://127.0.0.1:${forwarder.port}`,
      model: 'fake-model',
      timeoutSec: 120,
    });
    expect(run.stderr).not.toMatch(/panicked|error: /);
    const events = run.output.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events.map((event) => event.type)).toContain('turn.completed');
    expect(run.output).toContain('The tests pass now; nothing left to do.');
    expect(upstream.requests.map((request) => `${request.method} ${request.path}`)).toContain('POST /v1/responses');
    const request = upstream.requests.find((entry) => entry.path === '/v1/responses');
    // The instruction reached the model; the key was added by the gateway, on the host.
    expect(JSON.stringify(request?.body)).toContain('pytest -q');
    expect(request?.headers['authorization']).toBe(`Bearer ${UPSTREAM_KEY}`);
  });
});
