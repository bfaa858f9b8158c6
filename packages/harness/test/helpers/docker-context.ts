import { listManagedContainers, removeManagedContainers } from '@agentbench/sandbox';

export { dockerSkipReason, RUNNER_IMAGE } from '../../../../test-support/docker-skip.js';

/** Names of the labelled containers of a run still present (removing them, so one failure does not leak). */
export async function containersLeftBy(runId: string): Promise<string[]> {
  const left = await listManagedContainers({ runId });
  if (left.length > 0) await removeManagedContainers({ runId });
  return left.map((container) => `${container.name} (${container.taskId ?? '?'})`);
}
