import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { ArtifactWriteError, isWriteFailure } from '../errors/artifact-write-error.js';
import { RepositoryError } from '../errors/repository-error.js';

/** Below this much room, a write that failed without an errno is taken to have found the disk full. */
const NEARLY_FULL_BYTES = 1024 * 1024;
/** How tools that give no errno (git, wrapped messages) say a write failed. */
const READ_ONLY_WORDS = /read-only file system/i;
const FULL_WORDS = /no space left on device|out of diskspace|unable to write|write error/i;

async function freeBytes(folder: string): Promise<number | undefined> {
  for (let current = folder; ; current = path.dirname(current)) {
    const info = await statfs(current).catch(() => undefined);
    if (info !== undefined) return info.bavail * info.bsize;
    if (path.dirname(current) === current) return undefined;
  }
}

/** The error and its causes, outermost first (a few levels: wrappers wrap once or twice). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 5; current = (current as { cause?: unknown }).cause) chain.push(current);
  return chain;
}

function subjectOf(chain: readonly unknown[]): string | undefined {
  for (const item of chain) {
    const subject = (item as { subject?: unknown } | null)?.subject;
    if (typeof subject === 'string') return subject;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return `${error instanceof Error ? error.message : String(error)} ${RepositoryError.isInstance(error) ? error.gitMessage : ''}`;
}

/**
 * An attempt's error as an ArtifactWriteError when the run folder could not take a file: an fs
 * error (ENOSPC, EROFS...) anywhere in its causes, named by the file a wrapper names (a command
 * log) or the attempt's log folder (fs write errors carry no path); or a tool's words for it
 * (git's "unable to write file", "Out of diskspace"), taken as a full disk only when the
 * workspace's file system is nearly full. Anything else is returned unchanged.
 */
export async function describeWriteFailure(error: unknown, paths: { logDir: string; workspaceDir: string }): Promise<unknown> {
  const chain = causeChain(error);
  const found = chain.find((item) => ArtifactWriteError.isInstance(item));
  if (found !== undefined) return found;
  const failure = chain.find(isWriteFailure) as NodeJS.ErrnoException | undefined;
  if (failure !== undefined) return new ArtifactWriteError(subjectOf(chain) ?? failure.path ?? paths.logDir, failure.code as string, { cause: error });
  const message = messageOf(error);
  if (READ_ONLY_WORDS.test(message)) return new ArtifactWriteError(paths.workspaceDir, 'EROFS', { cause: error });
  if (!FULL_WORDS.test(message)) return error;
  const free = await freeBytes(paths.workspaceDir);
  return free !== undefined && free < NEARLY_FULL_BYTES ? new ArtifactWriteError(paths.workspaceDir, 'ENOSPC', { cause: error }) : error;
}
