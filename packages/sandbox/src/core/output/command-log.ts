import { EventEmitter, once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { droppedBytesMarker, utf8Boundary, utf8StartBoundary } from './output-marker.js';

/** Bytes of stdout and of stderr a command log keeps by default (each stream: head and tail halves). */
export const DEFAULT_LOG_CAP_BYTES = 10 * 1024 * 1024;

/** One stream of a command log. `write` returns false when the caller should wait for `'drain'`. */
export interface CommandLogSink {
  write(chunk: Buffer): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/** What a closed log saw. */
export interface CommandLogSummary {
  /** Some output was dropped (stdout or stderr went past the cap). */
  isTruncated: boolean;
  /** Bytes the command wrote to each stream, kept or not. */
  stdoutBytes: number;
  stderrBytes: number;
}

export interface CommandLog {
  readonly path: string;
  readonly stdout: CommandLogSink;
  readonly stderr: CommandLogSink;
  /** Writes the ends of both streams, then `footer`; throws if the log could not be written. */
  close(footer: string | undefined): Promise<CommandLogSummary>;
}

/**
 * The output of one command, capped: `$ command`, `--- stdout ---`, stdout, `--- stderr ---`,
 * stderr, the exit line. Each stream keeps at most `capBytes`: its first half goes to disk as it
 * comes, its last half waits in memory, and when more came than fits, a marker naming the
 * dropped bytes sits between them. Output is written by the sandbox, so nothing it prints can
 * make the log (or our memory) grow past the cap. stderr's head waits in a side file while the
 * command runs, so each stream reads in one piece. A write error (disk full) is kept and thrown
 * by `close`.
 */
export async function openCommandLog(path: string, commandText: string, capBytes: number = DEFAULT_LOG_CAP_BYTES): Promise<CommandLog> {
  const stderrPath = `${path}.stderr-partial`;
  const file = createWriteStream(path);
  const stderrFile = createWriteStream(stderrPath);
  let failure: Error | undefined;
  const remember = (error: Error): void => {
    failure ??= error;
  };
  file.on('error', remember);
  stderrFile.on('error', remember);
  await Promise.all([once(file, 'open'), once(stderrFile, 'open')]);
  file.write(`$ ${commandText}\n--- stdout ---\n`);
  const stdout = new CappedStream(file, capBytes);
  const stderr = new CappedStream(stderrFile, capBytes);
  return {
    path,
    stdout,
    stderr,
    async close(footer) {
      try {
        await writeAll(file, stdout.ending());
        await endStream(stderrFile).catch(remember);
        if (failure === undefined) {
          file.write('\n--- stderr ---\n');
          for await (const chunk of createReadStream(stderrPath)) {
            if (file.destroyed) break;
            if (!file.write(chunk)) await once(file, 'drain');
          }
          await writeAll(file, stderr.ending());
          if (footer !== undefined) file.write(`\n${footer}`);
        }
      } catch (error) {
        remember(error as Error);
      }
      await endStream(file).catch(remember);
      await rm(stderrPath, { force: true });
      if (failure !== undefined) throw new Error(`could not write the command log ${path}: ${failure.message}`, { cause: failure });
      return { isTruncated: stdout.isTruncated || stderr.isTruncated, stdoutBytes: stdout.totalBytes, stderrBytes: stderr.totalBytes };
    },
  };
}

/**
 * One stream of output, at most `capBytes` of it kept: the head half written to `file` as it
 * arrives, the tail half in memory until `ending()`. The head's last 3 bytes wait too: if the
 * stream is cut, a character split there is left out rather than written half.
 */
class CappedStream extends EventEmitter implements CommandLogSink {
  totalBytes = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private headBytes = 0;
  private headEnd: Buffer[] = [];
  private tail: Buffer[] = [];
  private tailBytes = 0;

  constructor(
    private readonly file: WriteStream,
    capBytes: number,
  ) {
    super();
    const cap = Math.max(0, Math.floor(capBytes));
    this.headLimit = Math.ceil(cap / 2);
    this.tailLimit = cap - this.headLimit;
    file.on('drain', () => this.emit('drain'));
  }

  get isTruncated(): boolean {
    return this.totalBytes > this.headLimit + this.tailLimit;
  }

  write(chunk: Buffer): boolean {
    this.totalBytes += chunk.length;
    let rest = chunk;
    let isReady = true;
    if (this.headBytes < this.headLimit) {
      const taken = rest.subarray(0, this.headLimit - this.headBytes);
      const heldFrom = Math.max(this.headBytes, this.headLimit - 3) - this.headBytes;
      // A failed file takes nothing more (see writeAll); the caller must not wait for its drain.
      if (heldFrom > 0 && !this.file.destroyed) isReady = this.file.write(taken.subarray(0, heldFrom));
      if (heldFrom < taken.length) this.headEnd.push(Buffer.from(taken.subarray(heldFrom)));
      this.headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0 || this.tailLimit === 0) return isReady;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    // Compact once the tail holds well over its limit, so memory stays bounded.
    if (this.tailBytes > this.tailLimit * 2 + 65_536) this.compactTail();
    return isReady;
  }

  /** What follows the head on disk: the held bytes and the tail, with the marker when output was dropped. */
  ending(): Buffer[] {
    const headEnd = Buffer.concat(this.headEnd);
    if (!this.isTruncated) return [headEnd, ...this.tail];
    this.compactTail();
    const keptHeadEnd = headEnd.subarray(0, utf8Boundary(headEnd, headEnd.length));
    const tail = Buffer.concat(this.tail);
    const keptTail = tail.subarray(utf8StartBoundary(tail));
    const keptBytes = this.headBytes - headEnd.length + keptHeadEnd.length + keptTail.length;
    const marker = droppedBytesMarker({ droppedBytes: this.totalBytes - keptBytes, totalBytes: this.totalBytes });
    return [keptHeadEnd, Buffer.from(`\n${marker}\n`), keptTail];
  }

  private compactTail(): void {
    const joined = Buffer.concat(this.tail);
    const kept = joined.subarray(Math.max(0, joined.length - this.tailLimit));
    this.tail = [Buffer.from(kept)];
    this.tailBytes = kept.length;
  }
}

// A stream that failed (a full disk) never drains again: writing on would wait forever, so
// the rest is dropped and the error, already kept, is thrown by `close`.
async function writeAll(file: WriteStream, chunks: readonly Buffer[]): Promise<void> {
  for (const chunk of chunks) {
    if (file.destroyed) return;
    if (chunk.length > 0 && !file.write(chunk)) await once(file, 'drain');
  }
}

function endStream(stream: WriteStream): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
}
