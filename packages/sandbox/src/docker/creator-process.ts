import { LABEL_CREATED_AT, LABEL_HOSTNAME, LABEL_PID, LABEL_POOL, LABEL_RUN_ID, LABEL_TASK_ID } from '../core/engine/labels.js';

/** Who made a labelled container or image, and whether that process is gone. */
export interface CreatorProcess {
  creatorPid?: number;
  creatorHostname?: string;
  /** The creating process ran on this host and is no longer alive: nobody will remove what it made. */
  isOrphan: boolean;
}

/** Reads the creator's pid and host from our labels; a pid is only checked on its own host. */
export function creatorProcessOf(labels: Record<string, string>, thisHost: string): CreatorProcess {
  const pidText = labels[LABEL_PID];
  const creatorPid = pidText !== undefined && /^\d+$/.test(pidText) ? Number(pidText) : undefined;
  const creatorHostname = labels[LABEL_HOSTNAME];
  const creator: CreatorProcess = {
    isOrphan: creatorPid !== undefined && (creatorHostname === undefined || creatorHostname === thisHost) && !isProcessAlive(creatorPid),
  };
  if (creatorPid !== undefined) creator.creatorPid = creatorPid;
  if (creatorHostname !== undefined) creator.creatorHostname = creatorHostname;
  return creator;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What our labels say of anything we made, container or image: who made it, when, for which run, task and pool. */
export interface ManagedOwnership extends CreatorProcess {
  createdAt: Date;
  runId?: string;
  taskId?: string;
  /** The SandboxPool that started it (warm, or handed out since); absent for a sandbox created directly. */
  poolId?: string;
  labels: Record<string, string>;
}

/** Reads the ownership labels; `engineCreatedSeconds` (the engine's own creation time) when our created-at label is missing. */
export function ownershipOf(labels: Record<string, string>, engineCreatedSeconds: number, thisHost: string): ManagedOwnership {
  const createdLabel = labels[LABEL_CREATED_AT];
  const createdAt = createdLabel !== undefined && !Number.isNaN(Date.parse(createdLabel)) ? new Date(createdLabel) : new Date(engineCreatedSeconds * 1000);
  const ownership: ManagedOwnership = { ...creatorProcessOf(labels, thisHost), createdAt, labels };
  if (labels[LABEL_RUN_ID] !== undefined) ownership.runId = labels[LABEL_RUN_ID];
  if (labels[LABEL_TASK_ID] !== undefined) ownership.taskId = labels[LABEL_TASK_ID];
  if (labels[LABEL_POOL] !== undefined) ownership.poolId = labels[LABEL_POOL];
  return ownership;
}
