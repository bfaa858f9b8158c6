import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { asArtifactWriteError, isWriteFailure } from '../errors/artifact-write-error.js';
import { RunDirectoryError } from '../errors/run-directory-error.js';
import { isProcessAlive } from '../util/file-lock.js';

/** The lock file of a run folder: the pid of the process running it. */
export const RUN_LOCK_FILE = 'run.lock';

export interface RunLock {
  file: string;
  /** The pid of a dead process whose lock was taken over (a run killed with `kill -9`). */
  takenOverFrom?: number;
  release(): Promise<void>;
}

/**
 * Takes the run folder's lock (`run.lock`, holding our pid), so two processes never append to one
 * attempts.jsonl. A lock whose pid is alive is refused, naming the pid; the lock of a process that
 * is gone (a `kill -9`, a crash) is taken over.
 */
export async function acquireRunLock(runDir: string, pid: number = process.pid): Promise<RunLock> {
  const file = path.join(runDir, RUN_LOCK_FILE);
  let takenOverFrom: number | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    let handle;
    try {
      handle = await open(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw lockFailure(file, error);
    }
    if (handle !== undefined) {
      try {
        await handle.writeFile(`${pid}\n`);
        await handle.sync();
      } catch (error) {
        // An empty or cut lock would be taken over by the next run as a dead one's: none is left.
        await handle.close().catch(() => undefined);
        await rm(file, { force: true }).catch(() => undefined);
        throw lockFailure(file, error);
      }
      await handle.close();
      return { file, release: () => rm(file, { force: true }), ...(takenOverFrom === undefined ? {} : { takenOverFrom }) };
    }
    const text = await readFile(file, 'utf8').catch(() => '');
    const holder = Number.parseInt(text.trim(), 10);
    if (Number.isInteger(holder) && holder > 0 && holder !== pid && isProcessAlive(holder)) {
      throw new RunDirectoryError(file, `the run is in use by process ${holder} (still running); wait for it or stop it, then resume`);
    }
    // A dead holder (or an unreadable lock): take it over.
    if (Number.isInteger(holder) && holder > 0 && holder !== pid) takenOverFrom = holder;
    await rm(file, { force: true });
  }
  throw new RunDirectoryError(file, 'cannot take the run lock: another process keeps taking it');
}

/** A lock the place cannot take (read-only, full) is an ArtifactWriteError like every other file of the run. */
function lockFailure(file: string, error: unknown): unknown {
  if (isWriteFailure(error)) return asArtifactWriteError(error, file);
  return new RunDirectoryError(file, `cannot create the run lock: ${(error as Error).message}`, { cause: error });
}
