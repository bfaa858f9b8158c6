import { KindedError } from '@agentbench/schemas';

/** Kinds of sandbox failure a caller can branch on. */
export type SandboxErrorKind =
  | 'path_escape'
  | 'symlink_blocked'
  | 'file_not_found'
  | 'not_a_directory'
  | 'image_missing'
  | 'engine_unavailable'
  | 'backend_unavailable'
  | 'runtime_unavailable'
  | 'sandbox_disposed'
  | 'invalid_spec'
  | 'internal';

/** Base error of @agentbench/sandbox. `isInstance` works across copies of the package. */
export class SandboxError extends KindedError<SandboxErrorKind> {
  static override readonly marker: symbol = Symbol.for('agentbench.sandbox-error');
  override readonly name: string = 'SandboxError';
  /** The sandbox path (or image, or backend) the error is about, when there is one. */
  readonly subject?: string;

  constructor(kind: SandboxErrorKind, message: string, options?: { subject?: string; cause?: unknown }) {
    super(kind, message, options);
    if (options?.subject !== undefined) this.subject = options.subject;
  }
}

/** A path resolved outside the workspace, through `..` or an absolute path elsewhere. */
export class PathEscapeError extends SandboxError {
  override readonly name = 'PathEscapeError';
  constructor(path: string, workdir: string) {
    super('path_escape', `path "${path}" resolves outside the workspace ${workdir}`, { subject: path });
  }
}

/** A path goes through a symbolic link that points outside the workspace. */
export class SymlinkBlockedError extends SandboxError {
  override readonly name = 'SymlinkBlockedError';
  constructor(path: string, target: string) {
    super('symlink_blocked', `path "${path}" goes through a symbolic link to "${target}", outside the workspace`, {
      subject: path,
    });
  }
}

/** The image a sandbox needs is not present in the engine. */
export class ImageMissingError extends SandboxError {
  override readonly name = 'ImageMissingError';
  constructor(image: string, hint: string) {
    super('image_missing', `image ${image} is not present in the Docker engine. ${hint}`, { subject: image });
  }
}

/** The container runtime a sandbox asked for is not registered with the engine, or does not start containers. */
export class RuntimeUnavailableError extends SandboxError {
  override readonly name = 'RuntimeUnavailableError';
  constructor(runtime: string, problem: string, options?: { cause?: unknown }) {
    super('runtime_unavailable', `container runtime "${runtime}" ${problem}`, { subject: runtime, ...(options?.cause === undefined ? {} : { cause: options.cause }) });
  }
}
