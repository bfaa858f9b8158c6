import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Dockerode from 'dockerode';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findEngineStopEvidence } from './engine-stop-evidence.js';

const DockerodeClient = createRequire(import.meta.url)('dockerode') as typeof Dockerode;

let dir = '';
let servers: Server[] = [];
let asked: URL[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'stop-evidence-'));
  asked = [];
});
afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  servers = [];
  await rm(dir, { recursive: true, force: true });
});

/** An engine whose events endpoint answers these kill events (one JSON object a line, as dockerd streams them). */
async function engineWithKills(signals: string[]): Promise<Dockerode> {
  const socket = path.join(dir, `engine-${servers.length}.sock`);
  const server = createServer((request, response) => {
    asked.push(new URL(request.url ?? '/', 'http://engine'));
    response.setHeader('content-type', 'application/json');
    response.end(signals.map((signal, index) => `${JSON.stringify({ Type: 'container', Action: 'kill', Actor: { ID: `c${index}`, Attributes: { name: `ab-${index}`, signal } } })}\n`).join(''));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return new DockerodeClient({ socketPath: socket });
}

describe('findEngineStopEvidence', () => {
  it('finds a container of ours stopped by the engine (a kill with SIGTERM), asking only for this process\'s kills since the try began', async () => {
    const docker = await engineWithKills(['9', '15']);
    const since = new Date('2026-01-01T00:00:10Z');
    expect(await findEngineStopEvidence(docker, { since })).toBe('container ab-1 was sent signal 15 by the engine (a stopping engine stops its containers first)');
    const query = asked[0];
    expect(query?.pathname).toMatch(/\/events$/);
    expect(query?.searchParams.get('since')).toBe(String(Date.parse('2026-01-01T00:00:09Z') / 1000));
    expect(JSON.parse(query?.searchParams.get('filters') ?? '{}')).toEqual({ type: ['container'], event: ['kill'], label: ['dev.agentbench.managed=true', `dev.agentbench.pid=${process.pid}`] });
  });

  it('sees nothing in our own removals (SIGKILL) or in no kill at all', async () => {
    expect(await findEngineStopEvidence(await engineWithKills(['9', '9']), { since: new Date() })).toBeUndefined();
    expect(await findEngineStopEvidence(await engineWithKills([]), { since: new Date() })).toBeUndefined();
  });

  it('takes an events API that fails as evidence', async () => {
    const docker = new DockerodeClient({ socketPath: path.join(dir, 'nobody.sock') });
    expect(await findEngineStopEvidence(docker, { since: new Date() })).toMatch(/^its events API failed: .*ENOENT/);
  });
});
