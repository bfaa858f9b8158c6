import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGvisorRegistered } from '../src/docker/gvisor-availability.js';
import { removeManagedContainers } from '../src/docker/managed-containers.js';
import { listManagedImages } from '../src/docker/managed-images.js';
import { bundleChildScript } from './helpers/bundle-child.js';
import { RUNNER_IMAGE, useDockerTestContext } from './helpers/docker-test-context.js';

// What a gVisor sandbox's runtime move leaves when its process dies without disposing: the runsc container and the
// temporary image committed from the setup container. A SIGKILL leaves both to `ab cleanup` (removeManagedContainers);
// a plain exit leaves them to the process-wide exit sweep.
const context = await useDockerTestContext('docker-gvisor-leftovers.docker.test.ts');
const gvisor = context.skipReason === undefined ? await checkGvisorRegistered(context.docker) : undefined;
const skipReason = context.skipReason ?? gvisor?.reason;
const title = skipReason === undefined ? 'gVisor move leftovers after a crash' : `gVisor move leftovers after a crash (skipped: ${skipReason})`;

describe.skipIf(skipReason !== undefined)(title, () => {
  let child: { file: string; cleanup(): Promise<void> };

  beforeAll(async () => {
    child = await bundleChildScript(join(dirname(fileURLToPath(import.meta.url)), 'helpers', 'gvisor-move-child.ts'), 'gvisor-move-child');
  });

  afterAll(async () => {
    await child?.cleanup();
    await removeManagedContainers({ runId: context.runId }, { docker: context.docker });
  });

  async function startChild(mode: 'wait' | 'exit', taskId: string): Promise<{ process: ChildProcessWithoutNullStreams; containerId: string; image: string }> {
    const childProcess = spawn(process.execPath, [child.file, mode, context.runId, taskId, RUNNER_IMAGE], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const [containerId, image] = await new Promise<[string, string]>((resolve, reject) => {
      childProcess.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /ready (\w+) (\S+)/.exec(output);
        if (match?.[1] !== undefined && match[2] !== undefined) resolve([match[1], match[2]]);
      });
      childProcess.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      childProcess.once('exit', (code) => {
        if (mode === 'exit' && /ready /.test(output)) return;
        reject(new Error(`child exited (${code}) before it was ready: ${output}`));
      });
    });
    return { process: childProcess, containerId, image };
  }

  async function containerExists(id: string): Promise<boolean> {
    return context.docker
      .getContainer(id)
      .inspect()
      .then(
        () => true,
        () => false,
      );
  }

  async function imageExists(reference: string): Promise<boolean> {
    return context.docker
      .getImage(reference)
      .inspect()
      .then(
        () => true,
        () => false,
      );
  }

  it('after kill -9, the cleanup sweep removes the runsc container and the temporary image, and not while the creator lives', async () => {
    const taskId = 'gvisor-killed';
    const started = await startChild('wait', taskId);
    try {
      expect((await context.docker.getContainer(started.containerId).inspect()).HostConfig.Runtime).toBe('runsc');
      expect(await imageExists(started.image)).toBe(true);
      // Its creator is alive: an orphans-only sweep leaves both alone.
      const early = await removeManagedContainers({ runId: context.runId, taskId, onlyOrphans: true }, { docker: context.docker });
      expect(early.removed).toEqual([]);
      expect(early.removedImages).toEqual([]);
      const [listed] = await listManagedImages({ runId: context.runId, taskId }, { docker: context.docker });
      expect(listed).toMatchObject({ reference: started.image, isOrphan: false, creatorPid: started.process.pid });
    } finally {
      const exited = once(started.process, 'exit');
      started.process.kill('SIGKILL');
      await exited;
    }
    // Nothing ran at its exit: both are still there, now orphans (what `ab doctor` reports).
    expect(await containerExists(started.containerId)).toBe(true);
    expect(await listManagedImages({ runId: context.runId, taskId }, { docker: context.docker })).toMatchObject([{ reference: started.image, isOrphan: true }]);
    const swept = await removeManagedContainers({ runId: context.runId, taskId, onlyOrphans: true }, { docker: context.docker });
    expect(swept.removed.map((container) => container.id)).toEqual([started.containerId]);
    expect(swept.removedImages.map((image) => image.reference)).toEqual([started.image]);
    expect(swept.failed).toEqual([]);
    expect(swept.failedImages).toEqual([]);
    expect(await containerExists(started.containerId)).toBe(false);
    expect(await imageExists(started.image)).toBe(false);
  }, 240_000);

  it('at a plain exit without dispose, the exit sweep removes the runsc container and then its temporary image', async () => {
    const started = await startChild('exit', 'gvisor-exited');
    if (started.process.exitCode === null) await once(started.process, 'exit');
    expect(started.process.exitCode).toBe(0);
    expect(await containerExists(started.containerId)).toBe(false);
    expect(await imageExists(started.image)).toBe(false);
  }, 240_000);
});
