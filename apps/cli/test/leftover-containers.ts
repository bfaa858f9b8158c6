import { listManagedContainers, removeManagedContainers, type ManagedContainerFilter } from '@agentbench/sandbox';

/**
 * Names of the labelled containers a test file left behind, one filter (its runs, or its task id)
 * at a time. They are removed as they are found, so one failing file does not leak into the next.
 */
export async function containersLeftBy(filters: readonly ManagedContainerFilter[]): Promise<string[]> {
  const names: string[] = [];
  for (const filter of filters) {
    const left = await listManagedContainers(filter);
    if (left.length > 0) await removeManagedContainers(filter);
    names.push(...left.map((container) => container.name));
  }
  return names;
}
