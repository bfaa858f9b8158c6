import { readContainerCpuSeconds } from './container-cpu-seconds.js';

let removedCpuSeconds = 0;

/**
 * Adds a container's CPU seconds to the process's tally, just before the container is removed (its
 * cgroup goes with it). Only the host's cgroup files are read, never the engine: a dispose must not
 * wait on a stats call. A container whose files this process cannot see adds nothing.
 */
export async function tallyRemovedContainerCpu(containerId: string): Promise<void> {
  const seconds = await readContainerCpuSeconds(containerId, { isEngineAsked: false }).catch(() => undefined);
  if (seconds !== undefined) removedCpuSeconds += seconds;
}

/**
 * CPU seconds the Docker sandboxes this process removed have used, from their cgroups: a run's share
 * is the difference between its end and its start (issue 26's efficiency figure, run.json `efficiency`).
 */
export function removedContainersCpuSeconds(): number {
  return removedCpuSeconds;
}
