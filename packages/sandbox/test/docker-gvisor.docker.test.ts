import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMAND_MAX_PROCESSES_VARIABLE, GVISOR_HOST_PIDS_BASE, GVISOR_HOST_PIDS_PER_PROCESS } from '../src/docker/container-config.js';
import { RUNTIME_MOVE_REPOSITORY } from '../src/docker/runtime-move-image.js';
import { checkGvisorRegistered } from '../src/docker/gvisor-availability.js';
import { checkGvisor } from '../src/doctor/gvisor-check.js';
import { listManagedContainers } from '../src/docker/managed-containers.js';
import { SandboxError } from '../src/contract/sandbox-error.js';
import { useDockerTestContext } from './helpers/docker-test-context.js';
import { startHostListener, type HostListener } from './helpers/host-listener.js';

const context = await useDockerTestContext('docker-gvisor.docker.test.ts');
const gvisor = context.skipReason === undefined ? await checkGvisorRegistered(context.docker) : undefined;
const skipReason = context.skipReason ?? gvisor?.reason;
if (context.skipReason === undefined && skipReason !== undefined) console.warn(`[skipped] docker-gvisor.docker.test.ts: ${skipReason}`);
const title = skipReason === undefined ? 'DockerSandbox under gVisor (runsc)' : `DockerSandbox under gVisor (skipped: ${skipReason})`;

/** Runtime move images of this file's run (they carry the containers' labels). */
async function moveImagesOfRun(): Promise<string[]> {
  const images = await context.docker.listImages({ filters: { label: [`dev.agentbench.run-id=${context.runId}`] } });
  return images.flatMap((image) => image.RepoTags ?? []).filter((tag) => tag.startsWith(`${RUNTIME_MOVE_REPOSITORY}:`));
}

describe.skipIf(skipReason !== undefined)(title, () => {
  let listener: HostListener | undefined;

  afterAll(async () => {
    await listener?.close();
    expect(await moveImagesOfRun(), 'runtime move images left behind').toEqual([]);
  });

  it('runs commands in a gVisor kernel, with loopback only', async () => {
    const sandbox = await context.createSandbox({ runtime: 'runsc' }, 'gvisor-direct');
    try {
      expect(sandbox.runtime).toBe('runsc');
      const inspected = await context.docker.getContainer(sandbox.containerId).inspect();
      expect(inspected.HostConfig.Runtime).toBe('runsc');
      const kernel = await sandbox.exec('dmesg | head -n 5; echo; uname -r');
      expect(kernel.exitCode).toBe(0);
      expect(kernel.stdout).toMatch(/gVisor/);
      const interfaces = await sandbox.exec(['cat', '/proc/net/dev']);
      expect(interfaces.stdout).toContain('lo:');
      expect(interfaces.stdout).not.toMatch(/eth0|veth/);
      await sandbox.writeFile('notes/a.txt', 'under gvisor\n');
      expect(Buffer.from(await sandbox.readFile('notes/a.txt')).toString()).toBe('under gvisor\n');
      const error = await sandbox.setNetwork(true).catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/runtime "runsc".*without network/);
    } finally {
      await sandbox.dispose();
    }
  });

  it('runs setup with network under runc, then moves to gVisor when the network is cut, keeping the workspace and installed files', async () => {
    const mounted = await mkdtemp(join(tmpdir(), 'agentbench-gvisor-'));
    const sandbox = await context.createSandbox({ runtime: 'runsc', hasNetwork: true, mountWorkspace: mounted, env: { STAGE: 'kept' }, limits: { pids: 200 } }, 'gvisor-move');
    try {
      listener = await startHostListener(context.docker, sandbox);
      expect(sandbox.runtime).toBeUndefined();
      const setupKernel = await sandbox.exec('dmesg 2>&1 | head -n 3');
      expect(setupKernel.stdout).not.toMatch(/gVisor/);
      expect((await listener.probe(sandbox)).stdout).toBe('reply:hello-from-host\n');
      // "Installed" outside the workspace (the image layer) and inside it (the mount).
      const setup = await sandbox.exec('mkdir -p /opt/tool && echo v1 > /opt/tool/version && echo built > artifact.txt');
      expect(setup.exitCode).toBe(0);
      const setupContainer = sandbox.containerId;
      // A command still running at the cut is ended, as by an abort, keeping what it printed.
      let markStarted: () => void = () => undefined;
      const started = new Promise<void>((resolve) => {
        markStarted = resolve;
      });
      const running = sandbox.exec('echo started; sleep 60', { onStdout: () => markStarted() });
      await started;

      await sandbox.setNetwork(false);
      expect(await running).toMatchObject({ exitCode: 137, killedBy: 'abort', stdout: 'started\n' });
      expect(sandbox.containerId).not.toBe(setupContainer);
      expect(sandbox.runtime).toBe('runsc');
      expect(sandbox.hasNetwork).toBe(false);
      const inspected = await context.docker.getContainer(sandbox.containerId).inspect();
      expect(inspected.HostConfig.Runtime).toBe('runsc');
      // The same limits.pids, kept inside gVisor: host room for gVisor's threads, each command capped at 200 processes.
      expect(inspected.HostConfig.PidsLimit).toBe(200 * GVISOR_HOST_PIDS_PER_PROCESS + GVISOR_HOST_PIDS_BASE);
      expect(inspected.Config.Env).toContain(`${COMMAND_MAX_PROCESSES_VARIABLE}=200`);
      // Not in the commands' environment; their RLIMIT_NPROC instead.
      expect((await sandbox.exec(['bash', '-c', `echo "[$${COMMAND_MAX_PROCESSES_VARIABLE}]"; ulimit -u`])).stdout).toBe('[]\n200\n');
      expect(inspected.Config.Labels['dev.agentbench.task-id']).toBe('gvisor-move');
      await expect(context.docker.getContainer(setupContainer).inspect()).rejects.toMatchObject({ statusCode: 404 });

      const after = await sandbox.exec('dmesg | head -n 3; cat /opt/tool/version; cat artifact.txt; echo "$STAGE"; pwd');
      expect(after.stdout).toMatch(/gVisor/);
      expect(after.stdout).toContain('v1\nbuilt\nkept\n/workspace\n');
      expect((await listener.probe(sandbox)).stdout).toMatch(/^unreachable:/);
      await sandbox.exec('echo from-gvisor > after.txt');
      expect(await readFile(join(mounted, 'after.txt'), 'utf8')).toBe('from-gvisor\n');
      expect(await moveImagesOfRun()).toHaveLength(1);
    } finally {
      await sandbox.dispose();
      await rm(mounted, { recursive: true, force: true });
    }
    expect(await moveImagesOfRun()).toEqual([]);
  });

  it('ab doctor says gVisor is usable, how it is registered, and leaves nothing behind', async () => {
    const check = await checkGvisor(context.docker, 'agentbench/py-runner:0.1.0');
    expect(check).toMatchObject({ name: 'gvisor runtime', status: 'ok', isRequired: false });
    expect(check.detail).toMatch(/"runsc" registered without network .* under gVisor/);
    expect(await listManagedContainers({ runId: 'doctor' }, { docker: context.docker })).toEqual([]);
  });

  it('refuses a runtime the engine does not know with a clear error, and leaves nothing behind', async () => {
    const error = await context.createSandbox({ runtime: 'no-such-runtime' }, 'gvisor-unknown').catch((caught: unknown) => caught);
    expect(SandboxError.isInstance(error)).toBe(true);
    expect((error as SandboxError).kind).toBe('runtime_unavailable');
    expect((error as Error).message).toContain('"no-such-runtime" is not registered with the Docker engine');
    expect((error as Error).message).toContain('daemon.json');
    expect(await listManagedContainers({ runId: context.runId, taskId: 'gvisor-unknown' }, { docker: context.docker })).toEqual([]);
    expect(await moveImagesOfRun()).toEqual([]);
  });
});
