import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../src/docker/docker-sandbox.js';
import {
  LABEL_CREATED_AT,
  LABEL_HOSTNAME,
  LABEL_MANAGED,
  LABEL_PID,
  LABEL_RUN_ID,
  LABEL_TASK_ID,
} from '../src/core/engine/labels.js';
import { listManagedContainers, removeManagedContainers } from '../src/docker/managed-containers.js';
import { liveSandboxCount } from '../src/core/live-sandboxes.js';
import { ImageMissingError, SandboxError } from '../src/contract/sandbox-error.js';
import { bundleChildScript } from './helpers/bundle-child.js';
import { RUNNER_IMAGE, useDockerTestContext } from './helpers/docker-test-context.js';

const context = await useDockerTestContext('docker-lifecycle.docker.test.ts');
const title = context.skipReason === undefined ? 'DockerSandbox lifecycle' : `DockerSandbox lifecycle (skipped: ${context.skipReason})`;

async function containerExists(id: string): Promise<boolean> {
  try {
    await context.docker.getContainer(id).inspect();
    return true;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return false;
    throw error;
  }
}

describe.skipIf(context.skipReason !== undefined)(title, () => {
  it('creates a hardened, labelled container', async () => {
    const sandbox = await context.createSandbox({ limits: { memoryMb: 512, pids: 100, cpus: 1 } }, 'hardening');
    try {
      const inspected = await context.docker.getContainer(sandbox.containerId).inspect();
      const labels = inspected.Config.Labels;
      expect(labels[LABEL_MANAGED]).toBe('true');
      expect(labels[LABEL_RUN_ID]).toBe(context.runId);
      expect(labels[LABEL_TASK_ID]).toBe('hardening');
      expect(labels[LABEL_PID]).toBe(String(process.pid));
      expect(labels[LABEL_HOSTNAME]).toBe(hostname());
      expect(Number.isNaN(Date.parse(labels[LABEL_CREATED_AT] ?? ''))).toBe(false);
      const host = inspected.HostConfig;
      expect(host.CapDrop).toEqual(['ALL']);
      expect(host.SecurityOpt).toContain('no-new-privileges');
      expect(host.PidsLimit).toBe(100);
      expect(host.Memory).toBe(512 * 1024 * 1024);
      expect(host.MemorySwap).toBe(512 * 1024 * 1024);
      expect(host.NanoCpus).toBe(1e9);
      expect(host.Init).toBe(true);
      expect(Object.keys(host.Tmpfs ?? {})).toEqual(['/tmp']);
      const status = await sandbox.exec(['sh', '-c', 'grep -E "^(CapEff|NoNewPrivs)" /proc/self/status; cat /proc/1/comm; df -P /tmp | tail -1']);
      expect(status.stdout).toMatch(/CapEff:\s+0000000000000000/);
      expect(status.stdout).toMatch(/NoNewPrivs:\s+1/);
      expect(status.stdout).toContain('docker-init');
      expect(status.stdout).toContain('tmpfs');
    } finally {
      await sandbox.dispose();
    }
  });

  it('reaps orphaned processes through docker-init', async () => {
    const sandbox = await context.createSandbox({}, 'reaping');
    try {
      // Each orphan is re-parented to PID 1 and exits at once; without an init it stays a zombie.
      await sandbox.exec(['sh', '-c', 'for i in 1 2 3 4 5; do (setsid true &); done']);
      let zombies = '';
      for (let attempt = 0; attempt < 50; attempt++) {
        zombies = (await sandbox.exec(['sh', '-c', "ps -eo stat=,pid=,comm= | awk '$1 ~ /^Z/'"])).stdout;
        if (zombies === '') break;
      }
      expect(zombies).toBe('');
    } finally {
      await sandbox.dispose();
    }
  });

  it('dispose removes the container, is idempotent, and later calls fail as disposed', async () => {
    const baseline = liveSandboxCount();
    const sandbox = await context.createSandbox({}, 'dispose');
    expect(liveSandboxCount()).toBe(baseline + 1);
    expect(await containerExists(sandbox.containerId)).toBe(true);
    await Promise.all([sandbox.dispose(), sandbox.dispose()]);
    await sandbox.dispose();
    expect(await containerExists(sandbox.containerId)).toBe(false);
    expect(liveSandboxCount()).toBe(baseline);
    await expect(sandbox.exec(['true'])).rejects.toMatchObject({ kind: 'sandbox_disposed' });
    await expect(sandbox.readFile('x')).rejects.toMatchObject({ kind: 'sandbox_disposed' });
  });

  it('disposes through Symbol.asyncDispose, and fails a command in flight as disposed', async () => {
    const sandbox = await context.createSandbox({}, 'async-dispose');
    const running = sandbox.exec(['sleep', '4270']).catch((error: unknown) => error);
    await sandbox[Symbol.asyncDispose]();
    expect(await running).toMatchObject({ kind: 'sandbox_disposed' });
    expect(await containerExists(sandbox.containerId)).toBe(false);
  });

  it('listens to SIGINT and SIGTERM only while sandboxes are alive', async () => {
    const before = { sigint: process.listenerCount('SIGINT'), sigterm: process.listenerCount('SIGTERM') };
    expect(liveSandboxCount()).toBe(0);
    const sandbox = await context.createSandbox({}, 'listeners');
    expect(process.listenerCount('SIGINT')).toBe(before.sigint + 1);
    expect(process.listenerCount('SIGTERM')).toBe(before.sigterm + 1);
    await sandbox.dispose();
    expect(process.listenerCount('SIGINT')).toBe(before.sigint);
    expect(process.listenerCount('SIGTERM')).toBe(before.sigterm);
  });

  it('reports a missing image with a hint to build or pull it', async () => {
    const error = await DockerSandbox.create({ image: 'agentbench/no-such-image:0.0.0', labels: { runId: context.runId } }, { docker: context.docker }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImageMissingError);
    expect((error as Error).message).toContain('agentbench/no-such-image:0.0.0');
    expect((error as Error).message).toContain('pnpm ab image build');
    expect((error as Error).message).toContain('build-offline.sh');
  });

  it('refuses limits beyond what the engine offers with an invalid_spec error', async () => {
    const error = await context.createSandbox({ limits: { cpus: 512 } }, 'too-many-cpus').catch((caught: unknown) => caught);
    expect(SandboxError.isInstance(error)).toBe(true);
    expect((error as SandboxError).kind).toBe('invalid_spec');
  });

  describe('managed containers', () => {
    let orphanId: string;
    let sandbox: DockerSandbox;

    beforeAll(async () => {
      // A pid that certainly ended: a child we waited for.
      const child = spawn(process.execPath, ['-e', '0']);
      await once(child, 'exit');
      const orphan = await context.docker.createContainer({
        Image: RUNNER_IMAGE,
        Cmd: ['true'],
        Labels: {
          [LABEL_MANAGED]: 'true',
          [LABEL_RUN_ID]: context.runId,
          [LABEL_TASK_ID]: 'orphan',
          [LABEL_PID]: String(child.pid),
          [LABEL_HOSTNAME]: hostname(),
          [LABEL_CREATED_AT]: new Date(Date.now() - 3_600_000).toISOString(),
        },
      });
      orphanId = orphan.id;
      sandbox = await context.createSandbox({}, 'alive');
    });

    afterAll(async () => {
      await sandbox?.dispose();
      await context.docker.getContainer(orphanId).remove({ force: true }).catch(() => undefined);
    });

    it('lists them with their run, task, creator and orphan state', async () => {
      const all = await listManagedContainers({ runId: context.runId }, { docker: context.docker });
      const byTask = new Map(all.map((container) => [container.taskId, container]));
      expect(byTask.get('orphan')).toMatchObject({ id: orphanId, isOrphan: true, runId: context.runId });
      expect(byTask.get('alive')).toMatchObject({ id: sandbox.containerId, isOrphan: false, creatorPid: process.pid });
      const orphans = await listManagedContainers({ runId: context.runId, onlyOrphans: true }, { docker: context.docker });
      expect(orphans.map((container) => container.id)).toEqual([orphanId]);
      const old = await listManagedContainers({ runId: context.runId, olderThanMs: 1_800_000 }, { docker: context.docker });
      expect(old.map((container) => container.id)).toEqual([orphanId]);
      const byTaskFilter = await listManagedContainers({ taskId: 'alive', runId: context.runId }, { docker: context.docker });
      expect(byTaskFilter.map((container) => container.id)).toEqual([sandbox.containerId]);
    });

    it('removes only the orphans when asked to', async () => {
      const result = await removeManagedContainers({ runId: context.runId, onlyOrphans: true }, { docker: context.docker });
      expect(result.removed.map((container) => container.id)).toEqual([orphanId]);
      expect(result.failed).toEqual([]);
      expect(await containerExists(orphanId)).toBe(false);
      expect(await containerExists(sandbox.containerId)).toBe(true);
    });
  });

  describe('signals in a process that owns sandboxes', () => {
    let child: { file: string; cleanup(): Promise<void> };

    beforeAll(async () => {
      child = await bundleChildScript(join(dirname(fileURLToPath(import.meta.url)), 'helpers', 'signal-child.ts'), 'signal-child');
    });

    afterAll(async () => {
      await child?.cleanup();
    });

    async function runChild(mode: string, signal: NodeJS.Signals): Promise<{ code: number | null; containerId: string; output: string }> {
      const process_ = spawn(process.execPath, [child.file, mode, context.runId, RUNNER_IMAGE], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const containerId = await new Promise<string>((resolve, reject) => {
        process_.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /ready (\w+)/.exec(output);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        process_.stderr.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        process_.once('exit', () => reject(new Error(`child exited before it was ready: ${output}`)));
      });
      const exited = once(process_, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      process_.kill(signal);
      const [code] = await exited;
      return { code, containerId, output };
    }

    it('removes the containers on SIGINT and exits with 130', async () => {
      const { code, containerId } = await runChild('plain', 'SIGINT');
      expect(code).toBe(130);
      expect(await containerExists(containerId)).toBe(false);
    });

    it('removes the containers on SIGTERM and exits with 143', async () => {
      const { code, containerId } = await runChild('plain', 'SIGTERM');
      expect(code).toBe(143);
      expect(await containerExists(containerId)).toBe(false);
    });

    it('leaves SIGINT to a host application that handles it, and still cleans up at its exit', async () => {
      const { code, containerId, output } = await runChild('host-handler', 'SIGINT');
      expect(output).toContain('host-handled');
      expect(code).toBe(0);
      expect(await containerExists(containerId)).toBe(false);
    });
  });
});
