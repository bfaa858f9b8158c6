import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AttemptRecord, RunRecord } from '@agentbench/schemas';
import { writeJsonAtomic } from '@agentbench/helpers';
import { ArtifactWriteError, asArtifactWriteError, isWriteFailure, writingArtifact } from '../errors/artifact-write-error.js';

/** Run folders are private to the user who ran them. */
export const RUN_DIRECTORY_MODE = 0o700;

/** The closest folder of `target` (itself or an ancestor) that exists. */
async function closestExistingFolder(target: string): Promise<string | undefined> {
  for (let current = path.resolve(target); ; current = path.dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    if (info?.isDirectory() === true) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * Creates `folder` and its parents. A failure that is the place's fault (read-only, full, not
 * allowed) is an ArtifactWriteError naming the folder that could not take it: on a read-only file
 * system Node's recursive mkdir can answer ENOENT, so that case asks the closest existing folder.
 * Returns the first folder it made (undefined when `folder` existed), as `mkdir` does.
 */
export async function createArtifactFolder(folder: string, options: { mode?: number } = {}): Promise<string | undefined> {
  try {
    return await mkdir(folder, { recursive: true, ...(options.mode === undefined ? {} : { mode: options.mode }) });
  } catch (error) {
    if (isWriteFailure(error)) throw asArtifactWriteError(error, folder);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      const existing = await closestExistingFolder(folder);
      const denied = existing === undefined ? undefined : await access(existing, constants.W_OK).then(() => undefined, (accessError: unknown) => accessError);
      if (existing !== undefined && isWriteFailure(denied)) throw new ArtifactWriteError(existing, (denied as NodeJS.ErrnoException).code as string, { cause: error });
    }
    throw error;
  }
}

/**
 * Creates `<parent>/<name>`, or `<name>-2`, `-3`... when it exists, and returns its path. The
 * folder is private (0700): it holds sandbox-written workspaces, which no other host user should
 * reach while an attempt runs (a sandbox's file may be setuid until the kept workspace is cleaned).
 */
export async function createUniqueDirectory(parent: string, name: string): Promise<string> {
  await createArtifactFolder(parent);
  for (let attempt = 1; ; attempt += 1) {
    const candidate = path.join(parent, attempt === 1 ? name : `${name}-${attempt}`);
    try {
      await mkdir(candidate, { mode: RUN_DIRECTORY_MODE });
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw asArtifactWriteError(error, candidate);
    }
  }
}

/** Writes a run's JSON file (run.json, attempt.json) atomically; a full or read-only disk is an ArtifactWriteError naming it. */
export async function writeRunJson(file: string, value: RunRecord | AttemptRecord): Promise<void> {
  await writingArtifact(file, () => writeJsonAtomic(file, value));
}
