import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { EXIT_CODE_KILLED } from '../contract/sandbox.js';
import { eventually, hostProcessesWithMarker, uniqueMarker, type ConformanceContext } from './conformance-context.js';
import { CONFORMANCE_HOST_READY, type ConformanceHostReport } from './conformance-host-protocol.js';
import type { KilledHostBehaviour } from './conformance-options.js';
import { startDaemon } from './timeouts-and-process-tree.js';

/** What a killed host leaves, for the built-in backends (see the README's DESIGN notes, Conformance). */
export function builtinKilledHostBehaviour(backend: string): KilledHostBehaviour | undefined {
  if (backend === 'docker') {
    return {
      kind: 'swept',
      async sweep(labels) {
        const { removeManagedContainers } = await import('../docker/managed-containers.js');
        const result = await removeManagedContainers({ ...labels, onlyOrphans: true });
        if (result.failed.length > 0) throw new Error(`the sweep failed: ${result.failed.map((failure) => failure.message).join('; ')}`);
        return { removedIds: result.removed.map((container) => container.id) };
      },
    };
  }
  if (backend === 'bwrap') return { kind: 'dies-with-host' };
  if (backend === 'local') return { kind: 'left-behind', why: 'host processes in their own process groups outlive a SIGKILLed parent, and nothing labels them' };
  return undefined;
}

/** Starts the host child and waits for its report; the child is killed if it does not report. */
async function startHost(script: string, backend: string, specJson: string, marker: string) {
  const child = spawn(process.execPath, [script, backend, specJson, marker], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const report = await new Promise<ConformanceHostReport>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host child did not report within 90 s: ${output}`)), 90_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith(`${CONFORMANCE_HOST_READY} `));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice(CONFORMANCE_HOST_READY.length + 1)) as ConformanceHostReport);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the host child exited (${code}) before it reported: ${output}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return { child, report };
}

/** `dispose()` ends everything a sandbox started, and a host that dies without disposing leaves what the backend says. */
export function registerCleanupChecks(context: ConformanceContext): void {
  context.check('cleanup.dispose', 'cleanup', 'dispose ends a running command and daemons, is idempotent, and refuses every later call as sandbox_disposed', async () => {
    const sandbox = await context.sandbox();
    const daemon = uniqueMarker();
    await sandbox.exec(startDaemon(daemon));
    const running = uniqueMarker();
    let onStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      onStarted = resolve;
    });
    const inFlight = sandbox.exec(`echo started; sleep ${running}`, { onStdout: () => onStarted() }).catch((error: unknown) => error);
    await started;
    const seenOnHost = (await hostProcessesWithMarker(running)).length > 0;
    await Promise.all([sandbox.dispose(), sandbox.dispose()]);
    await sandbox.dispose();
    // Either answer says the command did not finish: a 137 abort or the call failing as disposed.
    const ended = await inFlight;
    if ((ended as { exitCode?: number }).exitCode !== undefined) expect(ended).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'abort' });
    else expect(ended).toMatchObject({ kind: 'sandbox_disposed' });
    if (seenOnHost) {
      expect(await eventually(async () => (await hostProcessesWithMarker(running)).length === 0 && (await hostProcessesWithMarker(daemon)).length === 0, 5_000)).toBe(true);
    }
    await expect(sandbox.exec('true')).rejects.toMatchObject({ kind: 'sandbox_disposed' });
    await expect(sandbox.readFile('x')).rejects.toMatchObject({ kind: 'sandbox_disposed' });
    await expect(sandbox.writeFile('x', 'x')).rejects.toMatchObject({ kind: 'sandbox_disposed' });
  });

  const behaviour = context.options.killedHost ?? builtinKilledHostBehaviour(context.options.backend);
  const title =
    behaviour === undefined
      ? 'what a SIGKILLed host leaves (not run: the backend must declare options.killedHost)'
      : behaviour.kind === 'dies-with-host'
        ? "a SIGKILLed host process takes its sandbox's processes with it"
        : behaviour.kind === 'swept'
          ? "a SIGKILLed host process's sandbox is found by its labels and removed by a sweep (ab cleanup)"
          : `a SIGKILLed host process leaves its sandbox's processes running (documented: ${behaviour.why})`;
  context.check(
    'cleanup.killed-host',
    'cleanup',
    title,
    async (skip) => {
      if (behaviour === undefined) return skip(`backend "${context.options.backend}" does not say what a killed host leaves: pass options.killedHost`);
      const script = context.options.hostScript ?? fileURLToPath(new URL('./conformance-host.js', import.meta.url));
      if (!existsSync(script)) return skip(`no host script at ${script}: build the package, or pass options.hostScript`);
      const marker = uniqueMarker();
      const base = context.specFor();
      const labels = { runId: base.labels?.['runId'] ?? `conformance-${marker.replace('.', '-')}`, taskId: `killed-host-${marker.replace('.', '-')}` };
      const spec = context.specFor({ labels });
      const { child, report } = await startHost(script, context.options.backend, JSON.stringify(spec), marker);
      let leftover: number[] = [];
      try {
        const seenBefore = (await hostProcessesWithMarker(marker)).length > 0;
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
        if (behaviour.kind === 'dies-with-host') {
          if (!seenBefore) return skip("the sandbox's processes are not visible in this host's /proc");
          expect(await eventually(async () => (await hostProcessesWithMarker(marker)).length === 0, 10_000), 'the sandbox processes ended with their host').toBe(true);
        } else if (behaviour.kind === 'swept') {
          const { removedIds } = await behaviour.sweep(labels);
          expect(removedIds).toContain(report.id);
          if (seenBefore) expect(await eventually(async () => (await hostProcessesWithMarker(marker)).length === 0, 10_000), 'the swept sandbox processes ended').toBe(true);
          expect((await behaviour.sweep(labels)).removedIds, 'a second sweep finds nothing').toEqual([]);
        } else {
          if (!seenBefore) return skip("the sandbox's processes are not visible in this host's /proc");
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          leftover = await hostProcessesWithMarker(marker);
          expect(leftover.length, 'the documented leak: the command still runs after its host died').toBe(1);
        }
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        // Whatever the check found or a failure left: this host's processes are ended here, the workspace removed.
        for (const pid of [...leftover, ...(await hostProcessesWithMarker(marker))]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
        if (behaviour.kind === 'left-behind' && report.workdir.startsWith(`${tmpdir()}/agentbench-`)) await rm(report.workdir, { recursive: true, force: true });
        if (behaviour.kind === 'swept') await behaviour.sweep(labels).catch(() => undefined);
      }
    },
    180_000,
  );
}
