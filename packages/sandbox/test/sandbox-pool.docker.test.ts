import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Dockerode from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../src/docker/docker-sandbox.js';
import { LABEL_POOL, POOL_SANDBOX_ROLE } from '../src/core/engine/labels.js';
import { listManagedContainers, removeManagedContainers } from '../src/docker/managed-containers.js';
import { SandboxError } from '../src/contract/sandbox-error.js';
import { createDockerSandboxPool, type DockerSandboxPool } from '../src/pool/docker-sandbox-pool.js';
import { createSandboxPool } from '../src/registry/create-sandbox-pool.js';
import { RUNNER_IMAGE, useDockerTestContext } from './helpers/docker-test-context.js';

const context = await useDockerTestContext('sandbox-pool.docker.test.ts');
const title = context.skipReason === undefined ? 'SandboxPool on Docker' : `SandboxPool on Docker (skipped: ${context.skipReason})`;
const toyRepo = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/toy_repo');
const spec = { image: RUNNER_IMAGE, limits: { memoryMb: 256, cpus: 1 } };

describe.skipIf(context.skipReason !== undefined)(title, () => {
  const pools: DockerSandboxPool[] = [];
  const taken: DockerSandbox[] = [];
  const folders: string[] = [];

  function newPool(options: Parameters<typeof createDockerSandboxPool>[0] = {}, notes: string[] = []): DockerSandboxPool {
    const pool = createDockerSandboxPool({ docker: context.docker, labels: { runId: context.runId, taskId: 'pool' }, onDebug: (note) => notes.push(note), ...options });
    pools.push(pool);
    return pool;
  }

  async function take(pool: DockerSandboxPool, handOut: Parameters<DockerSandboxPool['take']>[0] = {}): Promise<DockerSandbox> {
    const sandbox = await pool.take({ ...spec, ...handOut });
    taken.push(sandbox);
    return sandbox;
  }

  afterAll(async () => {
    await Promise.allSettled(taken.map((sandbox) => sandbox.dispose()));
    await Promise.allSettled(pools.map((pool) => pool.dispose()));
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('hands out a warm sandbox whose first command sees the workspace, the files and the env', async () => {
    const notes: string[] = [];
    const pool = newPool({ size: 1 }, notes);
    await pool.warm(spec);
    expect(await pool.readyCount(spec)).toBe(1);
    const sandbox = await take(pool, { hostWorkspace: toyRepo, files: { 'extra/note.txt': 'from the spec' }, env: { GREETING: 'hello' } });
    const result = await sandbox.exec('head -c 200 README.md >/dev/null && cat extra/note.txt && echo " $GREETING" && stat -c %U extra/note.txt && id -un');
    expect(result.exitCode).toBe(0);
    const [line, owner, user] = result.stdout.trim().split('\n');
    expect(line).toBe('from the spec hello');
    expect(owner).toBe(user);
    expect(notes.filter((note) => /cold/.test(note))).toEqual([]);
    expect(sandbox.hasNetwork).toBe(false);
    await expect(sandbox.claim({})).rejects.toThrow(/was already handed out: it cannot be claimed/);
  });

  it('never hands out a sandbox that was used: each take is a fresh container', async () => {
    const pool = newPool({ size: 2 });
    await pool.warm(spec);
    const seen = new Set<string>();
    for (let round = 0; round < 4; round += 1) {
      const sandbox = await take(pool, { files: { 'round.txt': String(round) } });
      expect(seen.has(sandbox.containerId)).toBe(false);
      seen.add(sandbox.containerId);
      const marker = await sandbox.exec('test -e /tmp/used-marker && echo used; touch /tmp/used-marker; ls');
      expect(marker.stdout).toBe('round.txt\n');
      await sandbox.dispose();
    }
  });

  it('labels its sandboxes so the cleanup sweep finds them, and dispose leaves no container', async () => {
    const pool = newPool({ size: 2 });
    await pool.warm(spec);
    const listed = await listManagedContainers({ poolId: pool.id }, { docker: context.docker });
    expect(listed).toHaveLength(2);
    expect(listed.every((container) => container.role === POOL_SANDBOX_ROLE && container.poolId === pool.id && container.runId === context.runId)).toBe(true);
    expect(listed[0]?.labels[LABEL_POOL]).toBe(pool.id);
    // `ab cleanup` removes them from outside; the pool's dispose then finds them gone, which is fine.
    const swept = await removeManagedContainers({ poolId: pool.id }, { docker: context.docker });
    expect(swept.removed).toHaveLength(2);
    await pool.dispose();

    const second = newPool({ size: 2 });
    await second.warm(spec);
    expect(await listManagedContainers({ poolId: second.id }, { docker: context.docker })).toHaveLength(2);
    await second.dispose();
    expect(await listManagedContainers({ poolId: second.id }, { docker: context.docker })).toEqual([]);
  });

  it('serves a mounted workspace warm: the caller\'s folder, at its path, is the running sandbox\'s workspace', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agentbench-pool-'));
    folders.push(root);
    const notes: string[] = [];
    const pool = newPool({ size: 1, mountSlotsDir: join(root, 'slots') }, notes);
    const workspace = join(root, 'workspace');
    await mkdir(workspace);
    await writeFile(join(workspace, 'prepared.txt'), 'prepared on the host\n');
    await pool.warm({ ...spec, mountWorkspace: workspace });
    const sandbox = await take(pool, { mountWorkspace: workspace });
    const result = await sandbox.exec('cat prepared.txt && echo written > by-sandbox.txt');
    expect(result.stdout).toBe('prepared on the host\n');
    expect(await readFile(join(workspace, 'by-sandbox.txt'), 'utf8')).toBe('written\n');
    expect(notes.filter((note) => /cold/.test(note))).toEqual([]);
    await sandbox.dispose();
    await pool.dispose();
    expect(existsSync(join(workspace, 'prepared.txt'))).toBe(true);
  });

  it('reports an engine it cannot reach by its address and the fix, leaving nothing behind', async () => {
    const gone = new Dockerode({ socketPath: '/tmp/agentbench-no-engine.sock' });
    const pool = await createSandboxPool('docker', { docker: gone, size: 1, labels: { runId: context.runId } });
    pools.push(pool);
    const error = await pool.warm(spec).catch((caught: unknown) => caught);
    expect(SandboxError.isInstance(error) && error.kind).toBe('engine_unavailable');
    expect((error as Error).message).toMatch(
      /^sandbox pool \S+ could not start a warm sandbox on the Docker engine at \/tmp\/agentbench-no-engine\.sock: cannot reach the Docker engine at \/tmp\/agentbench-no-engine\.sock \(ENOENT\): start dockerd/,
    );
    const takeError = await pool.take(spec).catch((caught: unknown) => caught);
    expect(SandboxError.isInstance(takeError) && takeError.kind).toBe('engine_unavailable');
    await pool.dispose();
    await expect(createSandboxPool('bwrap' as 'docker')).rejects.toThrow('createSandboxPool: backend "bwrap" has no pool; pools exist for: docker');
  });
});
