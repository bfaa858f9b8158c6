import type { ExecSinks, PathStatus, RunningCommand } from './executor-client.js';
import type { ExecRequest } from './protocol.js';
import type { FileEntry } from '../../contract/sandbox.js';

/**
 * How a sandbox reaches the commands it runs: the executor (one long-lived process inside
 * the sandbox, the fast path, used by the Docker and bwrap backends) or, in Docker, one
 * Engine API exec per operation (images without python3). Paths are absolute sandbox
 * paths the caller already checked lexically; implementations check the real path
 * (symbolic links) inside the sandbox.
 */
export interface CommandChannel {
  readonly isClosed: boolean;
  exec(request: Omit<ExecRequest, 'op'>, sinks: ExecSinks): RunningCommand;
  /** Kills a running command's process tree; it then reports `killed_by: 'abort'`. */
  kill(commandId: number): void;
  readFile(path: string): Promise<Buffer>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  listFiles(path: string, isRecursive: boolean): Promise<FileEntry[]>;
  stat(path: string): Promise<PathStatus>;
  /** Creates a folder and its parents; returns its real path. */
  makeDirectory(path: string): Promise<string>;
  /** User and group the commands run as: owner of what is copied in. */
  commandUser(): Promise<{ uid: number; gid: number }>;
  /** Stops the channel; pending operations fail with `error`. */
  close(error: Error): void;
}
