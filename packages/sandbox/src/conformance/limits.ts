import { expect } from 'vitest';
import { SandboxError } from '../contract/sandbox-error.js';
import { EXIT_CODE_KILLED, type Sandbox } from '../contract/sandbox.js';
import type { ConformanceContext } from './conformance-context.js';
import type { DiskBehaviour } from './conformance-options.js';

/**
 * A bash fork bomb under a python watcher that returns once the bomb met the limit (bash says "fork: …" on
 * stderr), not after a fixed time: on a loaded host the bomb may need longer than any fixed sleep to reach it.
 * The watcher then exits and the backend ends what is left of the command. Gives up (exit 3) after 25 s.
 */
const FORK_BOMB = [
  'python3',
  '-c',
  [
    'import select, subprocess, sys, time',
    'bomb = subprocess.Popen(["bash", "-c", "bomb() { bomb | bomb & }; bomb"], stderr=subprocess.PIPE)',
    'seen = b""',
    'deadline = time.monotonic() + 25',
    'while b"fork" not in seen and time.monotonic() < deadline:',
    '    if select.select([bomb.stderr], [], [], 0.5)[0]:',
    '        seen += bomb.stderr.read1(4096)',
    'sys.stderr.write(seen.decode("utf-8", "replace"))',
    'if b"fork" not in seen:',
    '    print("limit not reached in 25 s"); sys.exit(3)',
    'print("survived")',
  ].join('\n'),
];

const MEMORY_HOG = 'blocks = []\nwhile True: blocks.append(bytearray(16 * 1024 * 1024))';

/** Forks up to `most` sleeping children, prints how many it made and why it stopped, then kills them. */
function boundedForks(most: number): string[] {
  return [
    'python3',
    '-c',
    [
      'import os, signal, time',
      'children = []',
      'reason = "limit not reached"',
      'try:',
      `    while len(children) < ${most}:`,
      '        pid = os.fork()',
      '        if pid == 0:',
      '            time.sleep(30); os._exit(0)',
      '        children.append(pid)',
      'except OSError as error:',
      '    reason = error.strerror',
      'print("forked", len(children), reason)',
      'for pid in children: os.kill(pid, signal.SIGKILL)',
      'for pid in children: os.waitpid(pid, 0)',
    ].join('\n'),
  ];
}

/** The disk behaviour of the built-in backends (see the README's DESIGN notes, Disk). */
export function builtinDiskBehaviour(backend: string): DiskBehaviour | undefined {
  if (backend === 'docker') {
    return {
      kind: 'bounded',
      path: '/tmp',
      bytesFor: (spec) => Math.max(16, Math.floor((spec.limits?.memoryMb ?? 2048) / 2)) * 1024 * 1024,
      why: '/tmp is a tmpfs of half the memory limit; the workspace (overlay2 without a storage quota) is bounded only by the host disk',
    };
  }
  if (backend === 'bwrap') return { kind: 'unbounded', path: '/tmp', why: "/tmp, /root, /usr/local and the workspace are host folders: bounded only by the host's disk" };
  if (backend === 'local') return { kind: 'unbounded', path: '.', why: "the workspace is a host folder: bounded only by the host's disk" };
  return undefined;
}

/**
 * `limits`: memory (OOM kill → 137, killedBy oom), processes (a fork bomb stays inside) and what bounds writes.
 * `enforced` must hold; `best-effort` must hold where the backend applied the limit and never let a hog run free
 * unbounded; `ignored` (local) is checked to ignore them, with allocations small enough to be harmless.
 */
export function registerLimitChecks(context: ConformanceContext): void {
  const promise = context.promises.limits;
  // Only a backend that applies limits can end more than the command with them.
  const endsSandbox = promise === 'ignored' ? undefined : context.options.notKept?.memoryLimitEndsOnlyTheCommand;
  const memoryPromise = endsSandbox === undefined ? 'limits' : 'memoryLimitEndsOnlyTheCommand';

  context.check(
    'limits.memory',
    memoryPromise,
    promise === 'ignored'
      ? 'does not enforce limits.memoryMb (documented): 96 MiB fit under a 32 MiB limit'
      : endsSandbox !== undefined
        ? `a memory hog at limits.memoryMb ends the whole sandbox, with an error naming why on every later call; other sandboxes go on, dispose works (documented: ${endsSandbox.why})`
        : `kills a memory hog at limits.memoryMb: 137 with killedBy oom${promise === 'best-effort' ? ', or a MemoryError where only an address-space limit applies' : ''}, and the sandbox goes on`,
    async () => {
      if (promise === 'ignored') {
        const sandbox = await context.sandbox({ limits: { memoryMb: 32 } });
        expect(await sandbox.exec(['python3', '-c', 'data = bytearray(96 * 1024 * 1024); print(len(data))'])).toMatchObject({ exitCode: 0, stdout: `${96 * 1024 * 1024}\n` });
        return;
      }
      if (endsSandbox !== undefined) {
        const neighbour = await context.sandbox();
        const sandbox = await context.sandbox({ limits: { memoryMb: 128 } });
        await expect(sandbox.exec(['python3', '-c', MEMORY_HOG], { timeoutSec: 60 })).rejects.toThrow(endsSandbox.endedError);
        await expectEndedSandbox(sandbox, neighbour, endsSandbox);
        return;
      }
      const sandbox = await context.sandbox({ limits: { memoryMb: 128 } });
      const hog = await sandbox.exec(['python3', '-c', MEMORY_HOG], { timeoutSec: 60 });
      expect(hog.timedOut).toBe(false);
      if (promise === 'enforced' || hog.exitCode === EXIT_CODE_KILLED) {
        expect(hog).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'oom', signal: 9 });
      } else {
        expect(hog.exitCode).not.toBe(0);
        expect(hog.stderr).toContain('MemoryError');
      }
      // The backend's own processes survived: the command had the higher OOM score.
      expect(await sandbox.exec(['echo', 'ok'])).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
      // A plain SIGKILL afterwards is not mistaken for another OOM kill.
      expect(await sandbox.exec(['sh', '-c', 'kill -KILL $$'])).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'signal' });
    },
  );

  // Only a backend that applies limits can end more than the command with them.
  const pidsEndSandbox = promise === 'ignored' ? undefined : context.options.notKept?.pidsLimitEndsOnlyTheCommand;
  context.check(
    'limits.pids',
    pidsEndSandbox === undefined ? 'limits' : 'pidsLimitEndsOnlyTheCommand',
    promise === 'ignored'
      ? 'does not enforce limits.pids (documented): 40 processes run under a limit of 16'
      : pidsEndSandbox !== undefined
        ? `contains a fork bomb at limits.pids; afterwards the sandbox goes on, or has ended with an error naming why on every later call while other sandboxes go on and dispose works (documented: ${pidsEndSandbox.why})`
        : 'contains a fork bomb at limits.pids, and the sandbox goes on',
    async (skip) => {
      if (promise === 'ignored') {
        const sandbox = await context.sandbox({ limits: { pids: 16 } });
        expect((await sandbox.exec(boundedForks(40))).stdout).toBe('forked 40 limit not reached\n');
        return;
      }
      // Made first, so that it lives through the bomb: the host and the other sandboxes are not harmed.
      const neighbour = pidsEndSandbox === undefined ? undefined : await context.sandbox();
      const sandbox = await context.sandbox({ limits: { pids: 64 } });
      // A bounded count first: a backend that applies no limit must not meet a real fork bomb.
      const counted = await sandbox.exec(boundedForks(200), { timeoutSec: 60 });
      const match = /^forked (\d+) (.*)$/m.exec(counted.stdout);
      expect(match, counted.stdout + counted.stderr).not.toBeNull();
      if (match?.[2] === 'limit not reached') {
        if (promise === 'best-effort') return skip('the backend did not apply limits.pids on this host (best-effort)');
        expect.fail(`200 processes ran under limits.pids 64: ${counted.stdout}`);
      }
      expect(match?.[2]).toBe('Resource temporarily unavailable');
      expect(Number(match?.[1])).toBeLessThan(64);
      try {
        await expectBombContained(sandbox);
      } catch (error) {
        if (pidsEndSandbox === undefined || neighbour === undefined || !(error instanceof SandboxError) || !pidsEndSandbox.endedError.test(error.message)) throw error;
        await expectEndedSandbox(sandbox, neighbour, pidsEndSandbox);
      }
      if (neighbour !== undefined) expect(await neighbour.exec(['echo', 'neighbour'])).toMatchObject({ exitCode: 0, stdout: 'neighbour\n' });
    },
    120_000,
  );

  const disk = context.options.disk ?? builtinDiskBehaviour(context.options.backend);
  context.check(
    'limits.disk',
    'limits',
    disk === undefined
      ? 'bounds a disk-fill attempt (not run: the backend must declare options.disk)'
      : disk.kind === 'bounded'
        ? `bounds a disk-fill attempt in ${disk.path}: ENOSPC at the limit (${disk.why})`
        : `does not bound writes in ${disk.path} beyond the host's disk (documented: ${disk.why}): 64 MiB fit beside a 64 MiB memory limit`,
    async (skip) => {
      if (disk === undefined) return skip(`backend "${context.options.backend}" does not say how its disk is bounded: pass options.disk`);
      if (disk.kind === 'unbounded') {
        const sandbox = await context.sandbox({ limits: { memoryMb: 64 } });
        const file = `${disk.path}/agentbench-conformance-fill`;
        const fill = await sandbox.exec(`dd if=/dev/zero of=${file} bs=1M count=64 2>&1 && wc -c < ${file} && rm ${file}`, { timeoutSec: 60 });
        expect(fill.exitCode, fill.stdout).toBe(0);
        expect(fill.stdout.trim().split('\n').at(-1)).toBe(String(64 * 1024 * 1024));
        return;
      }
      const spec = context.specFor({ limits: { memoryMb: 256 } });
      const bound = disk.bytesFor(spec);
      const sandbox = await context.sandbox({ limits: { memoryMb: 256 } });
      const file = `${disk.path}/agentbench-conformance-fill`;
      const fill = await sandbox.exec(`dd if=/dev/zero of=${file} bs=1M count=${Math.ceil(bound / 1024 / 1024) + 64}; wc -c < ${file}; rm -f ${file}`, { timeoutSec: 120 });
      expect(fill.stderr).toMatch(/No space left on device/);
      const written = Number(fill.stdout.trim().split('\n').at(-1));
      expect(written).toBeGreaterThan(bound / 2);
      expect(written).toBeLessThanOrEqual(bound);
      expect(await sandbox.exec(['echo', 'still here'])).toMatchObject({ exitCode: 0, stdout: 'still here\n' });
    },
    180_000,
  );
}

/**
 * The fork bomb meets the limit, its command ends, and the sandbox goes on with the bomb gone: what is left is the
 * backend's own few processes, sh and ps. The forks the bomb left are still being reaped for a moment (gVisor reaps
 * them after the command returns), so the count is read until it drops, for at most 30 s. Between looks the wait is
 * on the host, not a `sleep` in the sandbox: every command started there costs the backend (gVisor: host threads).
 */
async function expectBombContained(sandbox: Sandbox): Promise<void> {
  const bomb = await sandbox.exec(FORK_BOMB, { timeoutSec: 30 });
  expect(bomb.stdout, bomb.stderr).toBe('survived\n');
  expect(bomb.stderr).toMatch(/fork/i);
  expect(await sandbox.exec(['echo', 'still here'])).toMatchObject({ exitCode: 0, stdout: 'still here\n' });
  // `ps` alone, counted here: a shell pipeline whose fork failed printed nothing, which read as 0 processes.
  // A count that could not be read (the bomb's forks still hold the process limit) is not a count.
  const processCount = async (): Promise<number | undefined> => {
    const listed = await sandbox.exec(['ps', '-e', '--no-headers']);
    return listed.exitCode === 0 ? listed.stdout.split('\n').filter((line) => line.trim() !== '').length : undefined;
  };
  let remaining = await processCount();
  for (let look = 0; look < 30 && (remaining === undefined || remaining >= 10); look += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    remaining = await processCount();
  }
  expect(remaining, 'processes left after the bomb (undefined: ps could not run)').toBeLessThan(10);
}

/** What a sandbox a limit ended does, where the backend declares it: every call fails naming why, its neighbour goes on, dispose works. */
async function expectEndedSandbox(sandbox: Sandbox, neighbour: Sandbox, declared: { endedError: RegExp }): Promise<void> {
  await expect(sandbox.exec(['echo', 'after'])).rejects.toThrow(declared.endedError);
  await expect(sandbox.readFile('anything')).rejects.toThrow(declared.endedError);
  expect(await neighbour.exec(['echo', 'neighbour'])).toMatchObject({ exitCode: 0, stdout: 'neighbour\n' });
  await sandbox.dispose();
  await sandbox.dispose();
  await expect(sandbox.exec(['true'])).rejects.toMatchObject({ kind: 'sandbox_disposed' });
}
