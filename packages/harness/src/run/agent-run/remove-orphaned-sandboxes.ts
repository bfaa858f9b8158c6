import { listManagedContainers, removeManagedContainers, type Engine } from '@agentbench/sandbox';

/**
 * Removes the Docker sandboxes a killed run left behind: the managed containers whose creator was
 * `deadPid` on this host (an `ab run` killed with `kill -9` never disposed them), on the local engine
 * or on each engine of the run's engines list. Best effort: an engine that does not answer has nothing
 * removed; returns how many went.
 */
export async function removeOrphanedSandboxes(deadPid: number, engines: ReadonlyArray<Engine['docker'] | undefined> = [undefined]): Promise<number> {
  let removed = 0;
  for (const docker of engines) {
    const on = docker === undefined ? {} : { docker };
    try {
      const orphans = (await listManagedContainers({ onlyOrphans: true }, on)).filter((container) => container.creatorPid === deadPid);
      const runIds = new Set(orphans.flatMap((container) => (container.runId === undefined ? [] : [container.runId])));
      for (const runId of runIds) removed += (await removeManagedContainers({ runId, onlyOrphans: true }, on)).removed.length;
    } catch {
      // This engine does not answer: nothing of it can be removed now (ab cleanup --engines can, later).
    }
  }
  return removed;
}
