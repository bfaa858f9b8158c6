import { expect } from 'vitest';
import { EXIT_CODE_KILLED, EXIT_CODE_TIMEOUT } from '../contract/sandbox.js';
import { eventually, hostProcessesWithMarker, sandboxSleepers, uniqueMarker, type ConformanceContext } from './conformance-context.js';

/**
 * Shell text that starts `sleep <marker>` as a daemon (its own session, through setsid) and goes on
 * only once the daemon runs.
 */
export function startDaemon(marker: string): string {
  return `setsid sh -c 'echo > .daemon-${marker}; exec sleep ${marker}' > /dev/null 2>&1 & while [ ! -e .daemon-${marker} ]; do sleep 0.01; done`;
}

/** A command ends when told to, and takes everything it started with it, whatever those processes do. */
export function registerTimeoutAndProcessTreeChecks(context: ConformanceContext): void {
  context.check('timeouts.process-tree', 'timeouts', 'kills the whole process tree on timeout (background jobs, a setsid grandchild, a subshell orphan) and reports 124', async () => {
    const sandbox = await context.sandbox();
    const marker = uniqueMarker();
    const result = await sandbox.exec(`sleep ${marker} & setsid sleep ${marker} & (sleep ${marker} &) ; sh -c "sleep ${marker}"`, { timeoutSec: 1 });
    expect(result).toMatchObject({ exitCode: EXIT_CODE_TIMEOUT, timedOut: true, killedBy: 'timeout' });
    expect(await sandboxSleepers(sandbox, marker)).toEqual([]);
    expect((await sandbox.exec('echo next')).stdout).toBe('next\n');
  });

  context.check('timeouts.ignores-sigterm', 'timeouts', 'kills a process tree that ignores SIGTERM on timeout, in bounded time', async () => {
    const sandbox = await context.sandbox();
    const marker = uniqueMarker();
    const started = Date.now();
    const result = await sandbox.exec(`trap '' TERM; sh -c "trap '' TERM; sleep ${marker}" & sleep ${marker}`, { timeoutSec: 1 });
    expect(result).toMatchObject({ exitCode: EXIT_CODE_TIMEOUT, timedOut: true, killedBy: 'timeout' });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await sandboxSleepers(sandbox, marker)).toEqual([]);
  });

  context.check('timeouts.abort', 'timeouts', 'kills a command whose AbortSignal fires (137, killedBy abort) and does not start one already aborted', async () => {
    const sandbox = await context.sandbox();
    const marker = uniqueMarker();
    const controller = new AbortController();
    const aborted = await sandbox.exec(`echo started; sleep ${marker}`, { signal: controller.signal, onStdout: () => controller.abort() });
    expect(aborted).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'abort', timedOut: false });
    expect(await sandboxSleepers(sandbox, marker)).toEqual([]);
    expect(await sandbox.exec('touch started', { signal: AbortSignal.abort() })).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'abort' });
    await expect(sandbox.readFile('started')).rejects.toMatchObject({ kind: 'file_not_found' });
  });

  context.check(
    'timeouts.background-jobs-and-daemons',
    'timeouts',
    'ends background jobs with the command; a setsid daemon lives on until dispose, which ends it',
    async (skip) => {
      const sandbox = await context.sandbox();
      const job = uniqueMarker();
      const daemon = uniqueMarker();
      const result = await sandbox.exec(`sleep ${job} & ${startDaemon(daemon)}; echo done`);
      expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n' });
      expect(await sandboxSleepers(sandbox, job)).toEqual([]);
      expect(await sandboxSleepers(sandbox, daemon)).toHaveLength(1);
      // After dispose only the host can look: a backend whose processes the host cannot see (a VM, gVisor) is checked up to here.
      const seenOnHost = (await hostProcessesWithMarker(daemon)).length > 0;
      await sandbox.dispose();
      if (!seenOnHost) return skip("the sandbox's processes are not visible in this host's /proc, so their end at dispose cannot be seen from here");
      expect(await eventually(async () => (await hostProcessesWithMarker(daemon)).length === 0, 5_000), 'the daemon ended by dispose').toBe(true);
    },
  );
}
