import { lstat, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { relativeToRun } from '../artifacts/attempt-paths.js';

/** The run folder's place for try folders a stopped run left without a record. Reports skip it. */
export const INTERRUPTED_TRIES_FOLDER = '.interrupted';

/**
 * Moves aside the folder of a try that a killed run left behind (no record), so the try starts
 * again from nothing; returns where it went, or undefined when there was none. A rename, not a
 * recursive delete: the old try's `workspace/` was mounted into its sandboxes, and a delete walking
 * a tree a surviving container rewrites (a folder swapped for a symlink) could reach host files.
 */
export async function moveInterruptedTry(runDir: string, tryDir: string): Promise<string | undefined> {
  const info = await lstat(tryDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (info === undefined) return undefined;
  const aside = path.join(runDir, INTERRUPTED_TRIES_FOLDER);
  await mkdir(aside, { recursive: true });
  const target = path.join(aside, `${relativeToRun(runDir, tryDir).split('/').join('__')}-${ulid()}`);
  await rename(tryDir, target);
  return target;
}
