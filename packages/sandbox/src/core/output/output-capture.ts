import { StringDecoder } from 'node:string_decoder';
import { droppedBytesMarker, utf8Boundary, utf8StartBoundary } from './output-marker.js';

/**
 * Keeps at most `capBytes` of one output stream for an ExecResult: the first half and
 * the last half, since a command's start (what ran) and its end (the test summary, the
 * error) are what a reader needs. What is dropped in between is replaced by a marker.
 * Chunks are also decoded for the streaming callback, never split inside a character.
 */
export class OutputCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private totalBytes = 0;
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    capBytes: number,
    private readonly onText?: (text: string) => void,
  ) {
    const cap = Math.max(0, Math.floor(capBytes));
    this.headLimit = Math.ceil(cap / 2);
    this.tailLimit = cap - this.headLimit;
  }

  get byteCount(): number {
    return this.totalBytes;
  }

  get isTruncated(): boolean {
    return this.totalBytes > this.headLimit + this.tailLimit;
  }

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    if (this.onText !== undefined) {
      const text = this.decoder.write(chunk);
      if (text !== '') this.onText(text);
    }
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const taken = rest.subarray(0, this.headLimit - this.headBytes);
      this.head.push(taken);
      this.headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0 || this.tailLimit === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    // Compact once the tail holds well over its limit, so memory stays bounded.
    if (this.tailBytes > this.tailLimit * 2 + 65_536) this.compactTail();
  }

  /** Flushes the decoder (a character cut at the very end) to the callback. */
  end(): void {
    if (this.onText === undefined) return;
    const text = this.decoder.end();
    if (text !== '') this.onText(text);
  }

  /** The kept text; `logPath` is named in the marker so a reader finds the log. */
  text(logPath?: string): string {
    const head = Buffer.concat(this.head);
    if (!this.isTruncated) return head.toString('utf8') + Buffer.concat(this.tail).toString('utf8');
    this.compactTail();
    const tail = Buffer.concat(this.tail);
    const headText = head.subarray(0, utf8Boundary(head, head.length));
    const tailText = tail.subarray(utf8StartBoundary(tail));
    const dropped = this.totalBytes - headText.length - tailText.length;
    const marker = droppedBytesMarker({ droppedBytes: dropped, totalBytes: this.totalBytes, ...(logPath === undefined ? {} : { logPath }) });
    return `${headText.toString('utf8')}\n${marker}\n${tailText.toString('utf8')}`;
  }

  private compactTail(): void {
    const joined = Buffer.concat(this.tail);
    const kept = joined.subarray(Math.max(0, joined.length - this.tailLimit));
    this.tail = [Buffer.from(kept)];
    this.tailBytes = kept.length;
  }
}

/** What every backend's command runner takes about a command's output, log and abort. */
export interface CommandOutputOptions {
  /** Bytes of stdout and of stderr kept in the result (head and tail, marker between). */
  outputCapBytes: number;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** stdout and stderr go to this file when set, each capped at `logCapBytes` (head and tail, marker between). */
  logPath?: string;
  /** Bytes of stdout and of stderr kept in the log file. Default `DEFAULT_LOG_CAP_BYTES` (10 MiB). */
  logCapBytes?: number;
  /** Shown at the top of the log file. */
  commandText: string;
  /** Aborting kills the command's process tree (137, killedBy 'abort'). */
  signal?: AbortSignal;
}
