import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../src/docker/docker-sandbox.js';
import { LABEL_NETWORK_HOLDER, LABEL_ROLE } from '../src/core/engine/labels.js';
import { listManagedContainers } from '../src/docker/managed-containers.js';
import { NetworkHolderPool, NETWORK_HOLDER_ROLE } from '../src/docker/network-holder-pool.js';
import { bundleChildScript } from './helpers/bundle-child.js';
import { RUNNER_IMAGE, useDockerTestContext } from './helpers/docker-test-context.js';
import { startHostListener, type HostListener } from './helpers/host-listener.js';

const context = await useDockerTestContext('docker-network-holders.docker.test.ts');
const title = context.skipReason === undefined ? 'DockerSandbox with network holders' : `DockerSandbox with network holders (skipped: ${context.skipReason})`;

describe.skipIf(context.skipReason !== undefined)(title, () => {
  let pool: NetworkHolderPool;
  let listener: HostListener;

  const createJoined = (hasNetwork = false): Promise<DockerSandbox> =>
    DockerSandbox.create({ image: RUNNER_IMAGE, hasNetwork, labels: { runId: context.runId, taskId: 'joined' } }, { networkHolders: pool });

  async function probeHost(sandbox: DockerSandbox): Promise<string> {
    return (await listener.probe(sandbox)).stdout;
  }

  async function holderIds(): Promise<string[]> {
    const containers = await context.docker.listContainers({ all: true, filters: { label: [`dev.agentbench.run-id=${context.runId}`, `${LABEL_ROLE}=${NETWORK_HOLDER_ROLE}`] } });
    return containers.map((container) => container.Id);
  }

  beforeAll(async () => {
    pool = new NetworkHolderPool({ docker: context.docker, labels: { runId: context.runId, taskId: 'holder' } });
    const connected = await context.createSandbox({ hasNetwork: true }, 'gateway');
    try {
      listener = await startHostListener(context.docker, connected);
    } finally {
      await connected.dispose();
    }
  });

  afterAll(async () => {
    await pool?.dispose();
    await listener?.close();
  });

  it('joins a ready holder, and the pool starts the next one', async () => {
    await pool.warm(RUNNER_IMAGE);
    expect(pool.readyCount(RUNNER_IMAGE)).toBe(1);
    const [holderId] = await holderIds();
    const sandbox = await createJoined();
    try {
      const inspected = await context.docker.getContainer(sandbox.containerId).inspect();
      expect(inspected.HostConfig.NetworkMode).toBe(`container:${holderId}`);
      expect(inspected.Config.Labels[LABEL_NETWORK_HOLDER]).toMatch(/^agentbench-net-/);
      expect((await sandbox.exec(['echo', 'joined'])).stdout).toBe('joined\n');
      await pool.warm(RUNNER_IMAGE);
      expect(pool.readyCount(RUNNER_IMAGE)).toBe(1);
      expect(await holderIds()).toHaveLength(2);
    } finally {
      await sandbox.dispose();
    }
    // The sandbox took its holder with it; the spare stays for the next one.
    const left = await holderIds();
    expect(left).toHaveLength(1);
    expect(left).not.toContain(holderId);
  });

  it('has no network by default, and gets and loses it through its holder', async () => {
    await pool.warm(RUNNER_IMAGE);
    const sandbox = await createJoined();
    try {
      expect(await probeHost(sandbox)).toMatch(/^unreachable:/);
      await sandbox.setNetwork(true);
      expect(await probeHost(sandbox)).toBe('reply:hello-from-host\n');
      await sandbox.setNetwork(false);
      expect(await probeHost(sandbox)).toMatch(/^unreachable:/);
      const interfaces = await sandbox.exec(['cat', '/proc/net/dev']);
      expect(interfaces.stdout).not.toContain('eth0');
    } finally {
      await sandbox.dispose();
    }
  });

  it('starts with network when asked (setup), and is cut off afterwards', async () => {
    await pool.warm(RUNNER_IMAGE);
    const sandbox = await createJoined(true);
    try {
      const inspected = await context.docker.getContainer(sandbox.containerId).inspect();
      expect(inspected.HostConfig.NetworkMode).toMatch(/^container:/);
      expect(sandbox.hasNetwork).toBe(true);
      expect(await probeHost(sandbox)).toBe('reply:hello-from-host\n');
      await sandbox.setNetwork(false);
      expect(await probeHost(sandbox)).toMatch(/^unreachable:/);
    } finally {
      await sandbox.dispose();
    }
  });

  it('takes the cold path when no holder is ready, and refills meanwhile', async () => {
    const coldPool = new NetworkHolderPool({ docker: context.docker, labels: { runId: context.runId, taskId: 'cold-holder' } });
    try {
      const sandbox = await DockerSandbox.create({ image: RUNNER_IMAGE, labels: { runId: context.runId, taskId: 'cold' } }, { networkHolders: coldPool });
      try {
        const inspected = await context.docker.getContainer(sandbox.containerId).inspect();
        expect(inspected.HostConfig.NetworkMode).toBe('none');
        expect((await sandbox.exec(['echo', 'cold'])).stdout).toBe('cold\n');
      } finally {
        await sandbox.dispose();
      }
      await coldPool.warm(RUNNER_IMAGE);
      expect(coldPool.readyCount(RUNNER_IMAGE)).toBe(1);
    } finally {
      await coldPool.dispose();
    }
    expect(await listManagedContainers({ runId: context.runId, taskId: 'cold-holder' }, { docker: context.docker })).toEqual([]);
  });

  it('stops making holders for an image that cannot start one, and the sandbox reports the real error', async () => {
    const missing = 'agentbench/no-such-image:0';
    const brokenPool = new NetworkHolderPool({ docker: context.docker, labels: { runId: context.runId, taskId: 'broken-holder' } });
    try {
      await brokenPool.warm(missing);
      expect(brokenPool.failure(missing)?.message).toMatch(/no-such-image/);
      await expect(DockerSandbox.create({ image: missing, labels: { runId: context.runId } }, { networkHolders: brokenPool })).rejects.toThrow(/no-such-image/);
    } finally {
      await brokenPool.dispose();
    }
  });

  it('starts without a holder when the one it took vanished (removed from outside), leaving nothing behind', async () => {
    for (const hasNetwork of [false, true]) {
      const holderTask = `vanished-holder-${hasNetwork}`;
      const ownPool = new NetworkHolderPool({ docker: context.docker, spares: 1, labels: { runId: context.runId, taskId: holderTask } });
      const notes: string[] = [];
      try {
        await ownPool.warm(RUNNER_IMAGE);
        const [holder] = await listManagedContainers({ runId: context.runId, taskId: holderTask }, { docker: context.docker });
        await context.docker.getContainer(holder!.id).remove({ force: true });
        const sandbox = await DockerSandbox.create(
          { image: RUNNER_IMAGE, hasNetwork, labels: { runId: context.runId, taskId: `vanished-${hasNetwork}` } },
          { networkHolders: ownPool, onDebug: (note) => notes.push(note) },
        );
        try {
          const inspected = await context.docker.getContainer(sandbox.containerId).inspect();
          expect(inspected.HostConfig.NetworkMode).toBe(hasNetwork ? 'bridge' : 'none');
          expect(notes.join('\n')).toMatch(/network holder .* is gone/);
          expect((await sandbox.exec(['echo', 'ok'])).stdout).toBe('ok\n');
          expect(sandbox.hasNetwork).toBe(hasNetwork);
        } finally {
          await sandbox.dispose();
        }
        // Only the sandbox of the second try existed, and it is gone too.
        expect(await listManagedContainers({ runId: context.runId, taskId: `vanished-${hasNetwork}` }, { docker: context.docker })).toEqual([]);
      } finally {
        await ownPool.dispose();
      }
    }
  });

  it('refuses a pool on another engine client', async () => {
    const other = new NetworkHolderPool();
    await expect(DockerSandbox.create({ image: RUNNER_IMAGE }, { docker: context.docker, networkHolders: other })).rejects.toThrow(/networkHolders/);
    await other.dispose();
  });

  it('dispose of the pool removes its spares', async () => {
    const ownPool = new NetworkHolderPool({ docker: context.docker, spares: 2, labels: { runId: context.runId, taskId: 'spares' } });
    await ownPool.warm(RUNNER_IMAGE);
    expect(ownPool.readyCount(RUNNER_IMAGE)).toBe(2);
    const spares = await listManagedContainers({ runId: context.runId, taskId: 'spares' }, { docker: context.docker });
    expect(spares.map((container) => [container.role, container.isOrphan])).toEqual([
      [NETWORK_HOLDER_ROLE, false],
      [NETWORK_HOLDER_ROLE, false],
    ]);
    await ownPool.dispose();
    expect(await listManagedContainers({ runId: context.runId, taskId: 'spares' }, { docker: context.docker })).toEqual([]);
    expect(ownPool.take(RUNNER_IMAGE)).toBeUndefined();
  });

  it('removes the sandbox, its holder and the spare when the process gets SIGTERM', async () => {
    const child = await bundleChildScript(join(dirname(fileURLToPath(import.meta.url)), 'helpers', 'signal-child.ts'), 'signal-child-pool');
    try {
      const running = spawn(process.execPath, [child.file, 'pool', context.runId, RUNNER_IMAGE], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      await new Promise<void>((resolve, reject) => {
        running.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (/ready \w+/.test(output)) resolve();
        });
        running.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        running.once('exit', () => reject(new Error(`child exited before it was ready: ${output}`)));
      });
      const mine = (): Promise<unknown[]> => listManagedContainers({ runId: context.runId, taskId: 'signal-pool-holder' }, { docker: context.docker });
      // The joined holder and the spare.
      expect(await mine()).toHaveLength(2);
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(143);
      expect(await mine()).toEqual([]);
      expect(await listManagedContainers({ runId: context.runId, taskId: 'signal-pool' }, { docker: context.docker })).toEqual([]);
    } finally {
      await child.cleanup();
    }
  });
});
