import type Dockerode from 'dockerode';
import { SandboxError } from '../contract/sandbox-error.js';
import { isGvisorRuntime } from './runtime-hint.js';

export interface GvisorSandboxFacts {
  container: Dockerode.Container;
  containerName: string;
  runtime: string | undefined;
  memoryMb: number;
  pids: number;
}

// The executor's death is seen as its pipe closes, a moment before the engine marks the container stopped.
const stopWaitAttempts = 15;
const stopWaitIntervalMs = 200;

/**
 * Under gVisor the container's cgroup holds gVisor's own kernel (the Sentry) with the commands, so a
 * memory limit (OOM) or the host's pids limit ends the whole sandbox, not only the command. When the
 * executor died under gVisor and the container stopped, returns the error that says so, naming the
 * runtime, the limit and the fix; otherwise (another runtime, a container still running) undefined.
 */
export async function explainGvisorSandboxEnd(facts: GvisorSandboxFacts, cause: unknown): Promise<SandboxError | undefined> {
  if (!isGvisorRuntime(facts.runtime)) return undefined;
  let state: Dockerode.ContainerInspectInfo['State'] | undefined;
  for (let attempt = 0; attempt < stopWaitAttempts; attempt += 1) {
    try {
      state = (await facts.container.inspect()).State;
    } catch {
      // Removed meanwhile: nothing to explain beyond the original error.
      return undefined;
    }
    if (!state.Running) break;
    await new Promise((resolve) => setTimeout(resolve, stopWaitIntervalMs));
  }
  if (state === undefined || state.Running) return undefined;
  const what = state.OOMKilled
    ? `its memory limit (limits.memoryMb ${facts.memoryMb}) was reached and the engine killed the container`
    : `the container stopped (exit code ${state.ExitCode}), as it does when the host's pids limit for gVisor's threads (limits.pids ${facts.pids}) is exhausted`;
  return new SandboxError(
    'internal',
    `docker sandbox ${facts.containerName} under runtime "${facts.runtime}" (gVisor) has ended: ${what}. Under gVisor a memory or process limit ends the whole sandbox, not only the command (gVisor's kernel counts against the container's limits); dispose of it and start a new sandbox, with higher limits if the command needs them`,
    { cause },
  );
}
