import { removeManagedContainers, type ManagedContainerFilter } from '@agentbench/sandbox';

/**
 * The last step of a run (or of its sandbox pool) on the local engine, however it ended: removes
 * what this process made for it (`runId` or `poolId` label) and still finds there. Each sandbox, warm sandbox and network holder is
 * removed by its owner first; this catches what a cleanup path missed on a loaded machine (a removal
 * the engine refused, a create still under way when its pool was disposed), so the run leaves
 * nothing behind all the same. Only this process's containers: another process's run is never
 * touched. Returns the names it had to remove, so the caller can say so; never throws (what it
 * cannot remove is left to `ab cleanup`, which finds it by the same labels).
 */
export async function removeRunLeftovers(filter: Pick<ManagedContainerFilter, 'runId' | 'poolId'>): Promise<string[]> {
  try {
    const result = await removeManagedContainers({ ...filter, onlyThisProcess: true });
    return result.removed.map((container) => container.name);
  } catch {
    return [];
  }
}
