import { HarnessError } from './harness-error.js';

/** The file system errors that mean "this place cannot take the run's files", with how to say them. */
const WRITE_FAILURES: Readonly<Record<string, string>> = {
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

export type ArtifactWriteFailure = keyof typeof WRITE_FAILURES;

/**
 * A run artifact (the run folder, run.json, attempts.jsonl, a log, a kept workspace) could not be
 * written because of where it goes: a read-only file system, a full disk, no permission. A user
 * error: `--out` must point somewhere writable with room. The message names the path and the cause.
 */
export class ArtifactWriteError extends HarnessError {
  static override readonly marker: symbol = Symbol.for('agentbench.harness.artifact-write-error');
  override readonly name = 'ArtifactWriteError';
  /** What could not be written. */
  readonly path: string;
  /** The errno code: EROFS, ENOSPC, EDQUOT, EACCES or EPERM. */
  readonly code: string;

  constructor(path: string, code: string, options?: { cause?: unknown; note?: string }) {
    super(`could not write ${path}: ${WRITE_FAILURES[code] ?? code}${options?.note === undefined ? '' : `; ${options.note}`}`, { cause: options?.cause, failureReason: 'INTERNAL_ERROR' });
    this.path = path;
    this.code = code;
  }

  /** Whether the disk is full (or over quota), as opposed to read-only or forbidden. */
  get isOutOfSpace(): boolean {
    return this.code === 'ENOSPC' || this.code === 'EDQUOT';
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for a file system error `ArtifactWriteError` stands for. */
export function isWriteFailure(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && code in WRITE_FAILURES;
}

/** `error` as an ArtifactWriteError about `path` when it is a write failure (already one stays as is); otherwise `error` unchanged. */
export function asArtifactWriteError(error: unknown, path: string): unknown {
  if (ArtifactWriteError.isInstance(error)) return error;
  if (!isWriteFailure(error)) return error;
  // fs errors of write() carry no path; mkdir's and open's name the one that failed.
  const failedPath = (error as NodeJS.ErrnoException).path ?? path;
  return new ArtifactWriteError(failedPath, errorCode(error) as string, { cause: error });
}

/** Runs a write of `path`, turning a write failure into an ArtifactWriteError naming it. */
export async function writingArtifact<Result>(path: string, write: () => Promise<Result>): Promise<Result> {
  try {
    return await write();
  } catch (error) {
    throw asArtifactWriteError(error, path);
  }
}
