import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BwrapSandbox } from '../src/bwrap/bwrap-sandbox.js';
import { disposeAllSandboxes, liveSandboxCount } from '../src/core/live-sandboxes.js';
import { LocalSandbox } from '../src/local/local-sandbox.js';
import { bundleChildScript } from './helpers/bundle-child.js';
import { useBwrapTestContext } from './helpers/bwrap-test-context.js';
import { useDockerTestContext } from './helpers/docker-test-context.js';

// The live-sandbox tracker (core/live-sandboxes.ts) knows the sandboxes of every backend: a real
// Docker container, a real bwrap sandbox and a local one are all disposed by it.
const context = await useDockerTestContext('live-sandboxes.docker.test.ts');
const bwrap = context.skipReason === undefined ? await useBwrapTestContext('live-sandboxes.docker.test.ts') : undefined;
const skipReason = context.skipReason ?? bwrap?.skipReason;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe.skipIf(skipReason !== undefined)('the live-sandbox tracker', () => {
  it('disposeAllSandboxes disposes the Docker, bwrap and local sandboxes alive', async () => {
    const baseline = liveSandboxCount();
    const docker = await context.createSandbox({}, 'tracker');
    const namespaces = await BwrapSandbox.create({ rootfs: bwrap?.rootfs ?? '' });
    const local = await LocalSandbox.create({}, { isWarningSilenced: true });
    try {
      expect(liveSandboxCount()).toBe(baseline + 3);
      await disposeAllSandboxes();
      expect(liveSandboxCount()).toBe(baseline);
      expect(await context.docker.getContainer(docker.containerId).inspect().catch(() => undefined)).toBeUndefined();
      await expect(namespaces.exec(['true'])).rejects.toMatchObject({ kind: 'sandbox_disposed' });
      await expect(local.exec(['true'])).rejects.toMatchObject({ kind: 'sandbox_disposed' });
      expect(await exists(local.workdir)).toBe(false);
    } finally {
      await Promise.allSettled([docker.dispose(), namespaces.dispose(), local.dispose()]);
    }
  });

  describe('a process ended by a signal it does not handle', () => {
    let child: { file: string; cleanup(): Promise<void> };
    let folder: string;

    beforeAll(async () => {
      child = await bundleChildScript(join(dirname(fileURLToPath(import.meta.url)), 'helpers', 'tracker-child.ts'), 'tracker-child');
      folder = await mkdtemp(join(tmpdir(), 'agentbench-tracker-test-'));
      // The bwrap sandbox's folders inside are given to its unprivileged user, who must reach them.
      await chmod(folder, 0o755);
    });

    afterAll(async () => {
      await child?.cleanup();
      if (folder !== undefined) await rm(folder, { recursive: true, force: true });
    });

    it('removes the bwrap and local sandboxes (processes and folders) and exits with 143 on SIGTERM', async () => {
      const process_ = spawn(process.execPath, [child.file, bwrap?.rootfs ?? ''], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: folder } });
      let output = '';
      await new Promise<void>((resolve, reject) => {
        process_.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('ready ')) resolve();
        });
        process_.stderr.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        process_.once('exit', () => reject(new Error(`child exited before it was ready: ${output}`)));
      });
      expect((await readdir(folder)).length).toBeGreaterThanOrEqual(3);
      const exited = once(process_, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      process_.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(143);
      expect(await readdir(folder)).toEqual([]);
    });
  });
});
