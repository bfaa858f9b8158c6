import { listManagedContainers, listManagedImages, removeManagedContainers, type Engine, type ManagedContainer, type ManagedContainerFilter, type ManagedImage, type RemovedContainers } from '@agentbench/sandbox';
import { RunDirectoryError } from '../errors/run-directory-error.js';

/** The engine calls the cleanup makes (tests pass fakes). */
export interface OrphanedSandboxEngine {
  list(filter: ManagedContainerFilter): Promise<ManagedContainer[]>;
  /** The images a run committed (a verdict's post-setup snapshot, a gVisor move): a kill can leave one whose container is gone. */
  listImages(filter: ManagedContainerFilter): Promise<ManagedImage[]>;
  remove(filter: ManagedContainerFilter): Promise<RemovedContainers>;
}

/** The local engine (no client given) or one engine of the run's engines list. */
export function dockerOrphanEngine(docker?: Engine['docker']): OrphanedSandboxEngine {
  const on = docker === undefined ? {} : { docker };
  return { list: (filter) => listManagedContainers(filter, on), listImages: (filter) => listManagedImages(filter, on), remove: (filter) => removeManagedContainers(filter, on) };
}

function describeContainer(container: ManagedContainer): string {
  return `${container.id.slice(0, 12)} (${container.state}${container.taskId === undefined ? '' : `, task ${container.taskId}`})`;
}

/**
 * Removes the Docker sandboxes a killed run left behind: the managed containers (and committed images)
 * whose creator was `deadPid` on this host (an `ab run` killed with `kill -9` never disposed them), on the local engine or
 * on each engine of the run's engines list. A resume must not
 * start while one may still run: its agent could still write into the try folder the resume moves
 * aside. So any failure (the engine unreachable, a container that will not go) refuses the resume,
 * naming the containers and the `ab cleanup` command. Returns how many went.
 */
export async function removeOrphanedSandboxes(deadPid: number, runDir: string, engines: readonly OrphanedSandboxEngine[] = [dockerOrphanEngine()]): Promise<number> {
  let removed = 0;
  for (const engine of engines) removed += await removeFromEngine(deadPid, runDir, engine);
  return removed;
}

async function removeFromEngine(deadPid: number, runDir: string, engine: OrphanedSandboxEngine): Promise<number> {
  const refuse = (what: string, cleanup: string, cause?: unknown): RunDirectoryError =>
    new RunDirectoryError(runDir, `cannot resume: ${what}; they may still write into the run's try folders. Remove them (${cleanup}), then resume`, cause === undefined ? undefined : { cause });
  let orphans: ManagedContainer[];
  let orphanImages: ManagedImage[];
  try {
    orphans = (await engine.list({ onlyOrphans: true })).filter((container) => container.creatorPid === deadPid);
    orphanImages = (await engine.listImages({ onlyOrphans: true })).filter((image) => image.creatorPid === deadPid);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw refuse(`the sandboxes of the killed run (pid ${deadPid}) could not be listed (${message})`, 'make the Docker engine reachable, or run `ab cleanup --orphans-only`', error);
  }
  // Removing by run id takes the run's images too, including those whose container was already gone when the run was killed.
  const runIds = [...new Set([...orphans, ...orphanImages].flatMap((owned) => (owned.runId === undefined ? [] : [owned.runId])))];
  const unlabelled = orphans.filter((container) => container.runId === undefined);
  let removed = 0;
  const failed: Array<{ container: ManagedContainer; message: string }> = [...unlabelled.map((container) => ({ container, message: 'no run id label' }))];
  for (const runId of runIds) {
    try {
      const result = await engine.remove({ runId, onlyOrphans: true });
      removed += result.removed.length;
      failed.push(...result.failed);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failed.push(...orphans.filter((container) => container.runId === runId).map((container) => ({ container, message })));
    }
  }
  if (failed.length > 0) {
    const failedRunIds = [...new Set(failed.flatMap(({ container }) => (container.runId === undefined ? [] : [container.runId])))];
    const cleanup = failedRunIds.length === 0 ? '`ab cleanup --orphans-only`' : failedRunIds.map((runId) => `\`ab cleanup --run-id ${runId}\``).join(', ');
    throw refuse(`${failed.length} sandbox(es) of the killed run (pid ${deadPid}) could not be removed: ${failed.map(({ container, message }) => `${describeContainer(container)}: ${message}`).join('; ')}`, cleanup);
  }
  return removed;
}
