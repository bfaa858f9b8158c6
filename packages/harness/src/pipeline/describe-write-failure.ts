import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { ArtifactWriteError, asArtifactWriteError } from '../errors/artifact-write-error.js';
import { RepositoryError } from '../errors/repository-error.js';

/** Below this much room, a write that failed without saying why is taken to have found the disk full. */
const NEARLY_FULL_BYTES = 1024 * 1024;

async function freeBytes(folder: string): Promise<number | undefined> {
  for (let current = folder; ; current = path.dirname(current)) {
    const info = await statfs(current).catch(() => undefined);
    if (info !== undefined) return info.bavail * info.bsize;
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * An attempt's error as an ArtifactWriteError when the run folder could not take a file: an fs
 * error (ENOSPC, EROFS...) names `logDir` when it has no path of its own; git, which only says
 * "unable to write file", is taken at its word when the workspace's file system is (nearly) full.
 * Anything else is returned unchanged.
 */
export async function describeWriteFailure(error: unknown, paths: { logDir: string; workspaceDir: string }): Promise<unknown> {
  const described = asArtifactWriteError(error, paths.logDir);
  if (ArtifactWriteError.isInstance(described) || !RepositoryError.isInstance(error)) return described;
  if (!/unable to write|no space left on device|read-only file system/i.test(error.gitMessage)) return error;
  if (/read-only file system/i.test(error.gitMessage)) return new ArtifactWriteError(paths.workspaceDir, 'EROFS', { cause: error });
  const free = await freeBytes(paths.workspaceDir);
  return free !== undefined && free < NEARLY_FULL_BYTES ? new ArtifactWriteError(paths.workspaceDir, 'ENOSPC', { cause: error }) : error;
}
