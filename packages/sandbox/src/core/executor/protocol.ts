/**
 * The executor's wire protocol: JSON lines both ways. Requests go to the executor's
 * stdin; every response line carries the request `id` it belongs to, except `ready`.
 * See `executor.py` for the other end.
 */

export const EXECUTOR_PROTOCOL_VERSION = 1;

export interface ExecRequest {
  op: 'exec';
  /** Runs as is. Exactly one of `argv` and `shell`. */
  argv?: string[];
  /** Runs through `/bin/sh -c`. */
  shell?: string;
  cwd?: string;
  env?: Record<string, string>;
  stdin_b64?: string;
  /** Absent or 0: no timeout. */
  timeout_ms?: number;
}

export interface KillRequest {
  op: 'kill';
  /** Id of the exec request to abort. */
  target: number;
}

export interface FileRequest {
  op: 'read' | 'write' | 'list' | 'stat' | 'mkdir';
  /** Absolute sandbox path, already checked lexically by the host. */
  path: string;
  data_b64?: string;
  append?: boolean;
  recursive?: boolean;
}

export type ExecutorRequest = ExecRequest | KillRequest | FileRequest;

export interface ReadyMessage {
  type: 'ready';
  version: number;
  pid: number;
  uid: number;
  gid: number;
  python: string;
  has_oom_counter: boolean;
}

export interface OutputMessage {
  id: number;
  type: 'stdout' | 'stderr' | 'chunk';
  data_b64: string;
}

export interface ExitMessage {
  id: number;
  type: 'exit';
  code: number;
  signal: number | null;
  timed_out: boolean;
  oom: boolean;
  killed_by: 'timeout' | 'signal' | 'oom' | 'abort' | null;
}

/** One batch of a `list`: [path relative to the listed folder, type, size]. */
export interface EntriesMessage {
  id: number;
  type: 'entries';
  entries: Array<[string, 'file' | 'directory' | 'symlink' | 'other', number]>;
}

export interface ResultMessage {
  id: number;
  type: 'result';
  [field: string]: unknown;
}

export type ExecutorErrorKind =
  | 'file_not_found'
  | 'not_a_directory'
  | 'is_a_directory'
  | 'not_a_file'
  | 'symlink_blocked'
  | 'permission_denied'
  | 'invalid_request'
  | 'internal';

export interface ErrorMessage {
  id: number | null;
  type: 'error';
  kind: ExecutorErrorKind;
  message: string;
  path?: string;
  target?: string;
  trace?: string;
}

export type ExecutorMessage = ReadyMessage | OutputMessage | ExitMessage | EntriesMessage | ResultMessage | ErrorMessage;

/** Serializes one request as a line. */
export function encodeRequest(id: number, request: ExecutorRequest): string {
  return `${JSON.stringify({ id, ...request })}\n`;
}

const newline = 0x0a;

/**
 * Splits a byte stream into JSON lines. Chunks may end anywhere, including inside a
 * multi-byte character, so bytes are kept until a newline arrives.
 */
export class JsonLineDecoder {
  private pending: Buffer[] = [];
  private pendingLength = 0;

  constructor(private readonly onMessage: (message: ExecutorMessage) => void) {}

  /** Feeds bytes; calls `onMessage` for every complete line. Throws on a line that is not a JSON object. */
  write(chunk: Buffer): void {
    let start = 0;
    let end = chunk.indexOf(newline, start);
    while (end !== -1) {
      let line = chunk.subarray(start, end);
      if (this.pendingLength > 0) {
        line = Buffer.concat([...this.pending, line], this.pendingLength + line.length);
        this.pending = [];
        this.pendingLength = 0;
      }
      if (line.length > 0) this.onMessage(parseLine(line));
      start = end + 1;
      end = chunk.indexOf(newline, start);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingLength += chunk.length - start;
    }
  }

  /** Bytes received after the last newline. */
  get bufferedBytes(): number {
    return this.pendingLength;
  }
}

function parseLine(line: Buffer): ExecutorMessage {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch (error) {
    throw new Error(`executor sent a line that is not JSON: ${preview(line)} (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') {
    throw new Error(`executor sent a line without a "type": ${preview(line)}`);
  }
  return value as ExecutorMessage;
}

function preview(line: Buffer): string {
  const text = line.subarray(0, 200).toString('utf8');
  return JSON.stringify(line.length > 200 ? `${text}…` : text);
}
