import { LABEL_HOSTNAME, LABEL_PID } from './labels.js';

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
