import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPythonMissing, startLocalExecutor, type LocalExecutor } from '../../../test/helpers/local-executor.js';
import { execOnChannel, resultOf } from './channel-exec.js';

describe('resultOf', () => {
  const exit = { id: 1, type: 'exit' as const, signal: null, timed_out: false, oom: false, killed_by: null };

  it('keeps plain exit codes as they are', () => {
    expect(resultOf({ ...exit, code: 3 }, 5)).toEqual({ exitCode: 3, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 5 });
  });

  it('reads a shell 128 + n as death by signal n', () => {
    expect(resultOf({ ...exit, code: 130 }, 0)).toMatchObject({ exitCode: 130, killedBy: 'signal', signal: 2 });
  });

  it('keeps timeout and OOM apart: 124 timeout, 137 oom', () => {
    expect(resultOf({ ...exit, code: 124, signal: 9, timed_out: true, killed_by: 'timeout' }, 0)).toMatchObject({
      exitCode: 124,
      timedOut: true,
      killedBy: 'timeout',
    });
    expect(resultOf({ ...exit, code: 137, signal: 9, oom: true, killed_by: 'oom' }, 0)).toMatchObject({ exitCode: 137, timedOut: false, killedBy: 'oom' });
  });
});

describe.skipIf(localPythonMissing !== undefined)(
  localPythonMissing === undefined ? 'execOnChannel output cap and log' : `execOnChannel output cap and log (skipped: ${localPythonMissing})`,
  () => {
    let workdir: string;
    let logDir: string;
    let executor: LocalExecutor;

    beforeAll(async () => {
      workdir = await mkdtemp(join(tmpdir(), 'agentbench-channel-'));
      logDir = await mkdtemp(join(tmpdir(), 'agentbench-channel-logs-'));
      executor = await startLocalExecutor(workdir);
    });

    afterAll(async () => {
      await executor?.stop();
      await rm(workdir, { recursive: true, force: true });
      await rm(logDir, { recursive: true, force: true });
    });

    it('keeps output under the cap untouched and not truncated', async () => {
      const result = await execOnChannel(executor.client, { shell: 'printf "small"; printf "err" >&2' }, { outputCapBytes: 100, commandText: 'x' });
      expect(result).toMatchObject({ exitCode: 0, stdout: 'small', stderr: 'err', truncated: false });
      expect(result.logPath).toBeUndefined();
    });

    it('caps each stream to head and tail with a marker naming the dropped bytes and the log file', async () => {
      const logPath = join(logDir, 'capped.log');
      const streamed: string[] = [];
      const result = await execOnChannel(
        executor.client,
        { shell: 'seq 1 20000; seq 1 5 >&2' },
        { outputCapBytes: 1000, commandText: 'seq 1 20000', logPath, onStdout: (chunk) => streamed.push(chunk) },
      );
      const full = Array.from({ length: 20000 }, (_, index) => `${index + 1}\n`).join('');
      expect(result.truncated).toBe(true);
      expect(result.stdout.startsWith('1\n2\n3\n')).toBe(true);
      expect(result.stdout.endsWith('19999\n20000\n')).toBe(true);
      const dropped = Buffer.byteLength(full) - 1000;
      expect(result.stdout).toContain(`[… ${dropped.toLocaleString('en-US')} of ${Buffer.byteLength(full).toLocaleString('en-US')} bytes dropped by agentbench; log: ${logPath} …]`);
      expect(result.stderr).toBe('1\n2\n3\n4\n5\n');
      expect(streamed.join('')).toBe(full);
      expect(result.logPath).toBe(logPath);
      expect(result.logTruncated).toBe(false);
      const log = await readFile(logPath, 'utf8');
      expect(log).toBe(`$ seq 1 20000\n--- stdout ---\n${full}\n--- stderr ---\n1\n2\n3\n4\n5\n\n--- exit 0 after ${result.durationMs} ms ---\n`);
    });

    it('caps the log too: head and tail of each stream, the dropped bytes named, logTruncated set', async () => {
      const logPath = join(logDir, 'log-capped.log');
      const result = await execOnChannel(
        executor.client,
        { shell: 'seq 1 20000; seq 1 3000 >&2' },
        { outputCapBytes: 1000, logCapBytes: 100, commandText: 'seq', logPath },
      );
      expect(result.logTruncated).toBe(true);
      const log = await readFile(logPath, 'utf8');
      const stdoutBytes = Buffer.byteLength(Array.from({ length: 20000 }, (_, index) => `${index + 1}\n`).join(''));
      const stderrBytes = Buffer.byteLength(Array.from({ length: 3000 }, (_, index) => `${index + 1}\n`).join(''));
      expect(log).toContain(`\n[… ${(stdoutBytes - 100).toLocaleString('en-US')} of ${stdoutBytes.toLocaleString('en-US')} bytes dropped by agentbench …]\n`);
      expect(log).toContain(`\n[… ${(stderrBytes - 100).toLocaleString('en-US')} of ${stderrBytes.toLocaleString('en-US')} bytes dropped by agentbench …]\n`);
      expect(log.startsWith('$ seq\n--- stdout ---\n1\n2\n3\n')).toBe(true);
      expect(log).toMatch(/19999\n20000\n\n--- stderr ---\n1\n2\n3\n/);
      expect(log).toMatch(/2999\n3000\n\n--- exit 0 after \d+ ms ---\n$/);
      expect(Buffer.byteLength(log)).toBeLessThan(400);
    });

    it('never cuts a multi-byte character at the cap', async () => {
      const result = await execOnChannel(executor.client, { shell: 'for i in $(seq 1 400); do printf "é"; done' }, { outputCapBytes: 101, commandText: 'x' });
      expect(result.truncated).toBe(true);
      expect(result.stdout).not.toContain('\uFFFD');
    });

    it('kills on abort and says so in the log', async () => {
      const controller = new AbortController();
      const logPath = join(logDir, 'aborted.log');
      const result = await execOnChannel(
        executor.client,
        { shell: 'echo begun; sleep 4398' },
        { outputCapBytes: 1000, commandText: 'sleep', logPath, signal: controller.signal, onStdout: () => controller.abort() },
      );
      expect(result).toMatchObject({ exitCode: 137, killedBy: 'abort', stdout: 'begun\n' });
      expect(await readFile(logPath, 'utf8')).toMatch(/--- exit 137 \(abort\) after \d+ ms ---\n$/);
    });

    it('stops waiting for an executor that stopped answering: the command fails past its limit and grace, the channel closes', async () => {
      // An executor of its own, frozen (SIGSTOP) once the command runs: it can neither kill it nor report.
      const frozen = await startLocalExecutor(workdir);
      const logPath = join(logDir, 'frozen.log');
      try {
        const result = execOnChannel(
          frozen.client,
          { shell: 'echo begun; sleep 30', timeout_ms: 300 },
          { outputCapBytes: 1000, commandText: 'sleep 30', logPath, hostGraceMs: 200, onStdout: () => frozen.child.kill('SIGSTOP') },
        );
        await expect(result).rejects.toMatchObject({
          name: 'SandboxError',
          kind: 'internal',
          message: "exec: no end reported for `sleep 30` 0.2 s after its 0.3 s limit: the sandbox's executor or the engine stopped answering",
        });
        expect(frozen.client.isClosed).toBe(true);
        expect(await readFile(logPath, 'utf8')).toMatch(/--- error: exec: no end reported for `sleep 30`/);
      } finally {
        frozen.child.kill('SIGKILL');
      }
    });
  },
);
