import { listManagedContainers, removeManagedContainers } from '@agentbench/sandbox';

/**
 * Removes the Docker sandboxes a killed run left behind: the managed containers whose creator was
 * `deadPid` on this host (an `ab run` killed with `kill -9` never disposed them). Best effort:
 * without a reachable engine there is nothing to remove; returns how many went.
 */
export async function removeOrphanedSandboxes(deadPid: number): Promise<number> {
  try {
    const orphans = (await listManagedContainers({ onlyOrphans: true })).filter((container) => container.creatorPid === deadPid);
    const runIds = new Set(orphans.flatMap((container) => (container.runId === undefined ? [] : [container.runId])));
    let removed = 0;
    for (const runId of runIds) removed += (await removeManagedContainers({ runId, onlyOrphans: true })).removed.length;
    return removed;
  } catch {
    return 0;
  }
}
