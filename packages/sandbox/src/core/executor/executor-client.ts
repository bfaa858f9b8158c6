import { SandboxError, SymlinkBlockedError } from '../../contract/sandbox-error.js';
import type { FileEntry } from '../../contract/sandbox.js';
import {
  encodeRequest,
  JsonLineDecoder,
  type EntriesMessage,
  type ErrorMessage,
  type ExecRequest,
  type ExecutorMessage,
  type ExitMessage,
  type FileRequest,
  type OutputMessage,
  type ReadyMessage,
  type ResultMessage,
} from './protocol.js';

/** The byte pipe to one executor process (a hijacked `docker exec`, or a child process). */
export interface ExecutorConnection {
  /** Sends bytes to the executor's stdin. */
  write(data: string): void;
  /** Ends the executor's stdin: it kills what still runs and exits. */
  close(): void;
}

export interface ExecSinks {
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
}

/** What `stat` found at a path (the real path has every symbolic link resolved). */
export interface PathStatus {
  exists: boolean;
  realPath: string;
  type?: FileEntry['type'];
  size?: number;
  mode?: number;
}

export interface RunningCommand {
  /** Request id, to `kill` it. */
  readonly id: number;
  readonly exit: Promise<ExitMessage>;
}

interface PendingRequest {
  onMessage(message: ExecutorMessage): void;
  fail(error: Error): void;
}

const diagnosticsLimit = 8192;

/**
 * Host end of the executor protocol, independent of how bytes travel: feed it the
 * executor's stdout with `receive`, its stderr with `receiveDiagnostics`, and call
 * `handleClose` when the connection ends. Requests run concurrently, matched by id.
 */
export class ExecutorClient {
  /** Resolves with the executor's hello; rejects if it ends or says something else first. */
  readonly ready: Promise<ReadyMessage>;
  private readonly pending = new Map<number, PendingRequest>();
  private readonly decoder: JsonLineDecoder;
  private nextId = 1;
  private isReady = false;
  private closedError: Error | undefined;
  private diagnostics = '';
  private startupOutput = '';
  private resolveReady!: (message: ReadyMessage) => void;
  private rejectReady!: (error: Error) => void;

  constructor(private readonly connection: ExecutorConnection) {
    this.ready = new Promise<ReadyMessage>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // A failure before `ready` is reported through `ready`; avoid an unhandled rejection.
    this.ready.catch(() => undefined);
    this.decoder = new JsonLineDecoder((message) => this.dispatch(message));
  }

  get isClosed(): boolean {
    return this.closedError !== undefined;
  }

  /** Last lines the executor wrote to its stderr (Python tracebacks), for error messages. */
  get diagnosticText(): string {
    return this.diagnostics;
  }

  /** What the executor process printed before it was ready (e.g. the engine's exec error). */
  get startupText(): string {
    return this.startupOutput;
  }

  /** Bytes from the executor's stdout. */
  receive(chunk: Buffer): void {
    if (this.closedError !== undefined) return;
    if (!this.isReady) this.startupOutput = (this.startupOutput + chunk.toString('utf8')).slice(-diagnosticsLimit);
    try {
      this.decoder.write(chunk);
    } catch (error) {
      const reason = this.isReady
        ? new SandboxError('internal', `executor protocol error: ${(error as Error).message}`)
        : new SandboxError('internal', `the executor did not start: ${this.startupOutput.trim() || (error as Error).message}`);
      this.handleClose(reason);
      this.connection.close();
    }
  }

  /** Bytes from the executor's stderr: kept (the last 8 KiB) to explain a crash. */
  receiveDiagnostics(chunk: Buffer): void {
    this.diagnostics = (this.diagnostics + chunk.toString('utf8')).slice(-diagnosticsLimit);
  }

  /** The connection ended: every pending request fails with `error` (or an "executor exited" error). */
  handleClose(error?: Error): void {
    if (this.closedError !== undefined) return;
    const details = this.diagnostics.trim();
    this.closedError =
      error ??
      new SandboxError(
        'internal',
        `the sandbox executor exited unexpectedly${details === '' ? '' : `: ${details.split('\n').slice(-5).join(' | ')}`}`,
      );
    if (!this.isReady) {
      const startup = this.startupOutput.trim();
      this.rejectReady(
        error ?? new SandboxError('internal', `the sandbox executor exited before it was ready${startup === '' ? '' : `: ${startup}`}`),
      );
    }
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const request of pending) request.fail(this.closedError);
  }

  /** Closes the connection; pending requests fail with `error`. */
  close(error: Error): void {
    this.handleClose(error);
    this.connection.close();
  }

  /** Starts a command; `exit` settles when it has ended and all its output was delivered. */
  exec(request: Omit<ExecRequest, 'op'>, sinks: ExecSinks): RunningCommand {
    const id = this.nextId++;
    const exit = new Promise<ExitMessage>((resolve, reject) => {
      this.pending.set(id, {
        onMessage: (message) => {
          switch (message.type) {
            case 'stdout':
              sinks.onStdout(Buffer.from((message as OutputMessage).data_b64, 'base64'));
              break;
            case 'stderr':
              sinks.onStderr(Buffer.from((message as OutputMessage).data_b64, 'base64'));
              break;
            case 'exit':
              this.pending.delete(id);
              resolve(message as ExitMessage);
              break;
            case 'error':
              this.pending.delete(id);
              reject(toSandboxError(message as ErrorMessage));
              break;
            default:
              break;
          }
        },
        fail: reject,
      });
      this.send(id, { op: 'exec', ...request }, reject);
    });
    return { id, exit };
  }

  /** Asks the executor to kill a running command's whole process tree. */
  kill(commandId: number): void {
    if (this.closedError !== undefined) return;
    const id = this.nextId++;
    this.pending.set(id, { onMessage: () => this.pending.delete(id), fail: () => undefined });
    this.send(id, { op: 'kill', target: commandId }, () => undefined);
  }

  /**
   * A file operation. `onPart` receives the streamed parts (`chunk` data of a read,
   * `entries` of a list) before the final result.
   */
  call(request: FileRequest, onPart?: (message: OutputMessage | EntriesMessage) => void): Promise<ResultMessage> {
    const id = this.nextId++;
    return new Promise<ResultMessage>((resolve, reject) => {
      this.pending.set(id, {
        onMessage: (message) => {
          if (message.type === 'result') {
            this.pending.delete(id);
            resolve(message as ResultMessage);
          } else if (message.type === 'error') {
            this.pending.delete(id);
            reject(toSandboxError(message as ErrorMessage));
          } else if (message.type === 'chunk' || message.type === 'entries') {
            onPart?.(message as OutputMessage | EntriesMessage);
          }
        },
        fail: reject,
      });
      this.send(id, request, reject);
    });
  }

  /** User and group the executor (and so every command) runs as. */
  async commandUser(): Promise<{ uid: number; gid: number }> {
    const hello = await this.ready;
    return { uid: hello.uid, gid: hello.gid };
  }

  /** Reads a whole file (streamed in 1 MiB parts). */
  async readFile(path: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    await this.call({ op: 'read', path }, (message) => {
      if (message.type === 'chunk') parts.push(Buffer.from(message.data_b64, 'base64'));
    });
    return Buffer.concat(parts);
  }

  /** Writes a file, creating its parent folders. */
  async writeFile(path: string, data: Uint8Array): Promise<void> {
    await this.call({ op: 'write', path, data_b64: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') });
  }

  /** Entries under a folder, sorted by path; symbolic links are listed, not followed. */
  async listFiles(path: string, isRecursive: boolean): Promise<FileEntry[]> {
    const entries: FileEntry[] = [];
    await this.call({ op: 'list', path, recursive: isRecursive }, (message) => {
      if (message.type !== 'entries') return;
      for (const [entryPath, type, size] of message.entries) entries.push({ path: entryPath, type, size });
    });
    return entries.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  }

  async stat(path: string): Promise<PathStatus> {
    const result = await this.call({ op: 'stat', path });
    const status: PathStatus = { exists: result['exists'] === true, realPath: String(result['real_path']) };
    if (typeof result['entry_type'] === 'string') status.type = result['entry_type'] as FileEntry['type'];
    if (typeof result['size'] === 'number') status.size = result['size'];
    if (typeof result['mode'] === 'number') status.mode = result['mode'];
    return status;
  }

  /** Creates a folder and its parents; returns its real path. */
  async makeDirectory(path: string): Promise<string> {
    const result = await this.call({ op: 'mkdir', path });
    return String(result['real_path']);
  }

  private send(id: number, request: Parameters<typeof encodeRequest>[1], reject: (error: Error) => void): void {
    if (this.closedError !== undefined) {
      this.pending.delete(id);
      reject(this.closedError);
      return;
    }
    try {
      this.connection.write(encodeRequest(id, request));
    } catch (error) {
      this.pending.delete(id);
      reject(new SandboxError('internal', `could not write to the sandbox executor: ${(error as Error).message}`, { cause: error }));
    }
  }

  private dispatch(message: ExecutorMessage): void {
    if (message.type === 'ready') {
      this.isReady = true;
      this.startupOutput = '';
      this.resolveReady(message);
      return;
    }
    const id = (message as { id?: unknown }).id;
    const request = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (request !== undefined) {
      request.onMessage(message);
    } else if (message.type === 'error') {
      // Not tied to a request we know: keep it where a later crash report shows it.
      this.receiveDiagnostics(Buffer.from(`executor error: ${(message as ErrorMessage).message}\n`));
    }
  }
}

/** Maps an executor error to the package's typed errors. */
export function toSandboxError(message: ErrorMessage): SandboxError {
  const subject = message.path;
  const options = subject === undefined ? {} : { subject };
  switch (message.kind) {
    case 'symlink_blocked':
      return new SymlinkBlockedError(message.path ?? '?', message.target ?? '?');
    case 'file_not_found':
    case 'not_a_directory':
      return new SandboxError(message.kind, message.message, options);
    case 'is_a_directory':
    case 'not_a_file':
      // As the local backend: reading a folder is "no such file".
      return new SandboxError('file_not_found', message.message, options);
    default: {
      const trace = message.trace === undefined ? '' : `\n${message.trace}`;
      return new SandboxError('internal', `${message.message}${trace}`, options);
    }
  }
}
