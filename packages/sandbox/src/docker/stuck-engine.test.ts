// A stuck engine (it takes a request and never answers) must not hang a create, a removal or a cleanup.
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Dockerode from 'dockerode';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxError } from '../contract/sandbox-error.js';
import { LABEL_MANAGED } from '../core/engine/labels.js';
import { removeManagedContainers } from './managed-containers.js';
import { removeContainer } from './remove-container.js';
import { DockerSandbox } from './docker-sandbox.js';

const DockerodeClient = createRequire(import.meta.url)('dockerode') as typeof Dockerode;

let dir = '';
let server: Server | undefined;
let engineCount = 0;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'stuck-engine-'));
});
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/**
 * An engine on a unix socket that lists one managed container and never answers a create or a removal,
 * as a stuck dockerd does (it holds the connection open), or answers a removal with `deleteStatus`.
 */
async function stuckEngine(deleteStatus?: { status: number; message: string }): Promise<Dockerode> {
  const socket = path.join(dir, `engine-${(engineCount += 1)}.sock`);
  server = createServer((request, response) => {
    if (request.method === 'POST' && (request.url ?? '').includes('/containers/create')) {
      return;
    }
    if (request.method === 'DELETE') {
      if (deleteStatus === undefined) return;
      response.writeHead(deleteStatus.status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: deleteStatus.message }));
      return;
    }
    response.setHeader('content-type', 'application/json');
    if ((request.url ?? '').startsWith('/images/')) return response.end('[]');
    response.end(JSON.stringify([{ Id: 'c1', Names: ['/agentbench-stuck'], Image: 'runner', State: 'running', Created: 1, Labels: { [LABEL_MANAGED]: 'true' } }]));
  });
  await new Promise<void>((resolve) => server?.listen(socket, resolve));
  return new DockerodeClient({ socketPath: socket });
}

describe('removeContainer', () => {
  it('gives a removal up when the engine does not answer within the time given, naming what it removed', async () => {
    const docker = await stuckEngine();
    const removal = removeContainer(docker, 'c1', 'the sandbox container agentbench-stuck', { timeoutMs: 300 });
    await expect(removal).rejects.toThrow(SandboxError);
    await expect(removal).rejects.toMatchObject({ kind: 'engine_unavailable', message: expect.stringMatching(/^the Docker engine did not remove the sandbox container agentbench-stuck within 0\.3 s/) });
  });

  it('counts a container already gone, or whose removal is under way, as removed', async () => {
    await expect(removeContainer(await stuckEngine({ status: 404, message: 'No such container: c1' }), 'c1', 'x')).resolves.toBeUndefined();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await expect(removeContainer(await stuckEngine({ status: 409, message: 'removal of container c1 is already in progress' }), 'c1', 'x')).resolves.toBeUndefined();
  });
});

describe('removeManagedContainers', () => {
  it('reports a container the engine does not remove in time as failed, and returns', async () => {
    const docker = await stuckEngine();
    const result = await removeManagedContainers({}, { docker, removeTimeoutMs: 300 });
    expect(result.removed).toEqual([]);
    expect(result.failed.map((failure) => [failure.container.name, failure.message])).toEqual([
      ['agentbench-stuck', 'the Docker engine did not remove container agentbench-stuck within 0.3 s; it may be stuck'],
    ]);
  });
});

describe('DockerSandbox.create', () => {
  it('fails as engine_unavailable when the engine does not answer the create in time, instead of waiting forever', async () => {
    const docker = await stuckEngine();
    const creation = DockerSandbox.create({ image: 'agentbench/py-runner:0.1.0', limits: { cpus: 1 } }, { docker, engineCallTimeoutMs: 300 });
    await expect(creation).rejects.toMatchObject({
      name: 'SandboxError',
      kind: 'engine_unavailable',
      message: 'the Docker engine did not create a container from agentbench/py-runner:0.1.0 within 0.3 s; it may be stuck',
    });
  });
});
