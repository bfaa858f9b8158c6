import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOG_CAP_BYTES } from '../src/index.js';
import { useDockerTestContext } from './helpers/docker-test-context.js';

const context = await useDockerTestContext('docker-limits.docker.test.ts');
const title = context.skipReason === undefined ? 'DockerSandbox limits' : `DockerSandbox limits (skipped: ${context.skipReason})`;
const temporaryFolders: string[] = [];

afterAll(async () => {
  await Promise.all(temporaryFolders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe.skipIf(context.skipReason !== undefined)(title, () => {
  it('stops a fork bomb with the pid limit, and the sandbox still runs commands afterwards', async () => {
    const sandbox = await context.createSandbox({ limits: { pids: 64 } }, 'fork-bomb');
    try {
      const bomb = await sandbox.exec(['bash', '-c', 'bomb() { bomb | bomb & }; bomb; sleep 3; echo survived'], { timeoutSec: 20 });
      // Forks fail once the limit is reached: the shell says so instead of taking the machine.
      expect(bomb.stderr).toMatch(/fork|Resource temporarily unavailable/i);
      const after = await sandbox.exec(['echo', 'still here']);
      expect(after).toMatchObject({ exitCode: 0, stdout: 'still here\n' });
      const processes = await sandbox.exec(['sh', '-c', 'ps -e --no-headers | wc -l']);
      // docker-init, sleep infinity, the executor, sh and ps: the bomb is gone.
      expect(Number(processes.stdout.trim())).toBeLessThan(10);
    } finally {
      await sandbox.dispose();
    }
  });

  it('kills a memory hog at the memory limit: 137, reported as oom, not as a timeout', async () => {
    const sandbox = await context.createSandbox({ limits: { memoryMb: 128 } }, 'memory-hog');
    try {
      const hog = await sandbox.exec(['python3', '-c', 'blocks = []\nwhile True: blocks.append(bytearray(16 * 1024 * 1024))'], {
        timeoutSec: 60,
      });
      expect(hog.exitCode).toBe(137);
      expect(hog.timedOut).toBe(false);
      expect(hog.killedBy).toBe('oom');
      expect(hog.signal).toBe(9);
      // The executor survived (the command had the higher OOM score).
      const after = await sandbox.exec(['echo', 'ok']);
      expect(after.stdout).toBe('ok\n');
      const timeout = await sandbox.exec(['sleep', '30'], { timeoutSec: 0.5 });
      expect(timeout).toMatchObject({ exitCode: 124, killedBy: 'timeout', timedOut: true });
    } finally {
      await sandbox.dispose();
    }
  });

  it('caps a 100 MB output flood in the result and in the log, naming the dropped bytes', async () => {
    const logDir = await mkdtemp(join(tmpdir(), 'agentbench-flood-'));
    temporaryFolders.push(logDir);
    const sandbox = await context.createSandbox({ logDir, defaultOutputCapBytes: 64 * 1024 }, 'flood');
    try {
      const bytes = 100 * 1024 * 1024;
      const flood = await sandbox.exec(['sh', '-c', `head -c ${bytes} /dev/zero | tr '\\0' 'x'; echo; echo tail-marker`], {
        logName: 'flood',
        timeoutSec: 120,
      });
      expect(flood.exitCode).toBe(0);
      expect(flood.truncated).toBe(true);
      expect(flood.logTruncated).toBe(true);
      expect(flood.logPath).toBe(join(logDir, 'flood.log'));
      expect(flood.stdout.length).toBeLessThan(64 * 1024 + 500);
      expect(flood.stdout).toContain(`bytes dropped by agentbench; log: ${flood.logPath} …]`);
      expect(flood.stdout.startsWith('xxxx')).toBe(true);
      expect(flood.stdout.trimEnd().endsWith('tail-marker')).toBe(true);
      // The log keeps 10 MiB of stdout: its first and last 5 MiB, the marker between.
      const log = await readFile(flood.logPath!);
      const total = bytes + 1 + 'tail-marker\n'.length;
      const marker = `\n[… ${(total - DEFAULT_LOG_CAP_BYTES).toLocaleString('en-US')} of ${total.toLocaleString('en-US')} bytes dropped by agentbench …]\n`;
      const stdoutStart = log.indexOf('--- stdout ---\n') + '--- stdout ---\n'.length;
      const markerAt = log.indexOf(marker);
      const stdoutEnd = log.indexOf('\n--- stderr ---\n');
      expect(markerAt - stdoutStart).toBe(DEFAULT_LOG_CAP_BYTES / 2);
      expect(log.subarray(stdoutStart, markerAt).every((byte) => byte === 0x78)).toBe(true);
      expect(stdoutEnd - (markerAt + Buffer.byteLength(marker))).toBe(DEFAULT_LOG_CAP_BYTES / 2);
      expect(log.subarray(stdoutEnd - 13, stdoutEnd).toString()).toBe('\ntail-marker\n');
      expect(log.length).toBeLessThan(DEFAULT_LOG_CAP_BYTES + 1000);
    } finally {
      await sandbox.dispose();
    }
  });
});
