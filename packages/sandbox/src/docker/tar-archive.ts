/**
 * Tar archives for the Engine API's archive endpoints (`putArchive`/`getArchive`), on
 * `tar-stream` (the version dockerode already brings): the format itself (ustar, pax and
 * GNU long names, checksums, padding) is the library's; what stays here is what the
 * library does not decide for us: which host entries go in (links stored, never
 * followed; sockets and devices skipped; a file cut or padded to the size announced
 * when it changes while read) and a reader that hands each entry to an async handler and
 * refuses headers it cannot trust (a size that is not a whole number of bytes).
 *
 * Security checks on what an archive contains (names, links, modes) are not here: they
 * belong to the one place that writes a sandbox's archive to the host,
 * `extractTarToHost`.
 */
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import tarStream from 'tar-stream';

export type TarEntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';

export interface TarEntryHeader {
  /** Path inside the archive, `/`-separated, without a trailing slash. */
  path: string;
  type: TarEntryType;
  size: number;
  /** Permission bits. */
  mode: number;
  mtime: Date;
  /** Target of a symbolic or hard link. */
  linkTarget?: string;
  uid?: number;
  gid?: number;
}

export interface TarOwner {
  uid: number;
  gid: number;
}

/** An in-memory file (`path` relative, `/`-separated). */
export interface TarFile {
  path: string;
  data: Uint8Array;
  mode?: number;
}

/**
 * What goes into an archive, in order: a host file or folder whose top entry is
 * `rootName` (with `.`, a folder's contents sit at the top and the folder itself has no
 * entry, so the destination keeps its own mode), or in-memory files.
 */
export type TarPart = { hostPath: string; rootName: string } | { files: Iterable<TarFile> };

// The largest size a ustar header holds (11 octal digits); larger ones go in a pax record.
const maximumOctalSize = 0o77777777777;
const rootOwner: TarOwner = { uid: 0, gid: 0 };

// ---------------------------------------------------------------- writer

/**
 * A tar stream of `parts`, read lazily (host files are read as the consumer pulls).
 * Owner ids are written as `owner`. A failure while reading the host destroys the
 * stream with that error.
 */
export function packTar(parts: TarPart[], owner: TarOwner = rootOwner): Readable {
  const pack = tarStream.pack();
  void writeParts(pack, parts, owner).then(
    () => pack.finalize(),
    (error: unknown) => pack.destroy(error as Error),
  );
  return pack;
}

async function writeParts(pack: tarStream.Pack, parts: TarPart[], owner: TarOwner): Promise<void> {
  for (const part of parts) {
    if ('hostPath' in part) await writeHostPath(pack, part.hostPath, part.rootName, owner);
    else for (const file of part.files) await writeFile(pack, file, owner);
  }
}

interface EntryHeader {
  name: string;
  type: 'file' | 'directory' | 'symlink';
  size?: number;
  /** Permission bits. */
  mode: number;
  mtime: Date;
  linkname?: string;
}

/** Headers as tar-stream takes them, for `owner`. */
function packHeader(entry: EntryHeader, owner: TarOwner): tarStream.Headers {
  const typeBits = { file: 0o100000, directory: 0o040000, symlink: 0o120000 }[entry.type];
  const header: tarStream.Headers & { pax?: Record<string, string> } = {
    ...entry,
    // tar-stream replaces a mode of 0 by its default; the file-type bits keep it nonzero
    // and are masked off when the header is written.
    mode: typeBits | (entry.mode & 0o7777),
    uid: owner.uid,
    gid: owner.gid,
  };
  if ((entry.size ?? 0) > maximumOctalSize) header.pax = { size: String(entry.size) };
  return header;
}

async function writeFile(pack: tarStream.Pack, file: TarFile, owner: TarOwner): Promise<void> {
  const data = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
  const header = packHeader({ name: file.path, type: 'file', size: data.length, mode: file.mode ?? 0o644, mtime: new Date() }, owner);
  await new Promise<void>((resolve, reject) => pack.entry(header, data, (error) => (error ? reject(error) : resolve())));
}

/** A host file or folder, depth first in name order. Links are stored as links, never followed. */
async function writeHostPath(pack: tarStream.Pack, hostPath: string, rootName: string, owner: TarOwner): Promise<void> {
  const pending: Array<{ hostPath: string; name: string }> = [{ hostPath, name: rootName }];
  while (pending.length > 0) {
    const next = pending.shift()!;
    const stats = await lstat(next.hostPath);
    const common = { name: next.name, mode: stats.mode, mtime: stats.mtime };
    if (stats.isDirectory()) {
      if (next.name !== '.') await writeBodyless(pack, packHeader({ ...common, type: 'directory' }, owner));
      const names = (await readdir(next.hostPath)).sort();
      pending.unshift(...names.map((name) => ({ hostPath: join(next.hostPath, name), name: next.name === '.' ? name : `${next.name}/${name}` })));
    } else if (stats.isSymbolicLink()) {
      await writeBodyless(pack, packHeader({ ...common, type: 'symlink', linkname: await readlink(next.hostPath) }, owner));
    } else if (stats.isFile()) {
      await writeHostFile(pack, next.hostPath, packHeader({ ...common, type: 'file', size: stats.size }, owner), stats.size);
    }
    // Sockets, FIFOs and devices: not ours to recreate in a sandbox.
  }
}

function writeBodyless(pack: tarStream.Pack, header: tarStream.Headers): Promise<void> {
  return new Promise((resolve, reject) => pack.entry(header, (error) => (error ? reject(error) : resolve())));
}

async function writeHostFile(pack: tarStream.Pack, hostPath: string, header: tarStream.Headers, size: number): Promise<void> {
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const written = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const sink = pack.entry(header, (error) => (error ? settle?.reject(error) : settle?.resolve()));
  let count = 0;
  if (size > 0) {
    for await (const chunk of createReadStream(hostPath, { highWaterMark: 256 * 1024, end: size - 1 })) {
      // A file that grows while we read is cut at the size the header announced.
      const piece = (chunk as Buffer).subarray(0, Math.max(0, size - count));
      count += piece.length;
      if (piece.length > 0) await writeWithBackpressure(sink, piece);
      if (count >= size) break;
    }
  }
  // A file that shrank meanwhile is padded, or tar-stream would fail the whole archive.
  if (count < size) await writeWithBackpressure(sink, Buffer.alloc(size - count));
  sink.end();
  await written;
}

/** Writes `chunk`, then waits for room; rejects when the archive is destroyed meanwhile. */
function writeWithBackpressure(sink: Writable, chunk: Buffer): Promise<void> {
  if (sink.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = (): void => {
      sink.off('close', onClose);
      resolve();
    };
    const onClose = (): void => {
      sink.off('drain', onDrain);
      reject(new Error('tar: the archive was closed while a file was written into it'));
    };
    sink.once('drain', onDrain);
    sink.once('close', onClose);
  });
}

// ---------------------------------------------------------------- reader

/**
 * Reads a tar stream entry by entry. `onEntry` gets the header and the body, which it
 * may consume or ignore (what it leaves is skipped); the next entry is read only once
 * it has returned. A corrupt or truncated archive, or a header with an impossible size,
 * rejects with `tar: unreadable archive (…)`, and so does an `onEntry` that throws (with
 * its own error).
 */
export async function readTar(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  onEntry: (header: TarEntryHeader, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const extract = tarStream.extract();
  let failure: Error | undefined;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    fail = (error) => {
      if (failure !== undefined) return;
      failure = error;
      extract.destroy();
      reject(error);
    };
    extract.on('finish', () => resolve());
  });
  extract.on('error', (error: Error) => fail(unreadable(error)));
  extract.on('entry', (raw: tarStream.Headers, stream: NodeJS.ReadableStream, next: (error?: unknown) => void) => {
    handleEntry(raw, stream, onEntry).then(() => next(), fail);
  });
  try {
    for await (const chunk of source) {
      if (failure !== undefined) break;
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (!extract.write(buffer)) await drainedOrClosed(extract);
    }
    if (failure === undefined) extract.end();
  } catch (error) {
    fail(error as Error);
  }
  await done;
}

async function handleEntry(
  raw: tarStream.Headers,
  stream: NodeJS.ReadableStream,
  onEntry: (header: TarEntryHeader, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // The handler may stop early (`break`): that must not end the stream, which would end the whole archive.
  const body: AsyncIterable<Buffer> = { [Symbol.asyncIterator]: () => ({ next: () => iterator.next() }) };
  await onEntry(entryHeaderOf(raw), body);
  // Whatever the handler left unread.
  while ((await iterator.next()).done !== true) {
    // skipped
  }
}

function entryHeaderOf(raw: tarStream.Headers): TarEntryHeader {
  const size = raw.size ?? 0;
  if (!Number.isSafeInteger(size) || size < 0) throw new Error(`tar: unreadable archive (entry "${raw.name}" has an impossible size)`);
  const type = entryTypeOf(raw);
  const header: TarEntryHeader = {
    path: raw.name.replace(/\/+$/, ''),
    type,
    size: type === 'file' ? size : 0,
    mode: (raw.mode ?? 0) & 0o7777,
    mtime: raw.mtime ?? new Date(0),
    uid: raw.uid ?? 0,
    gid: raw.gid ?? 0,
  };
  if (type === 'symlink' || type === 'hardlink') header.linkTarget = raw.linkname ?? '';
  return header;
}

function entryTypeOf(raw: tarStream.Headers): TarEntryType {
  switch (raw.type) {
    case 'file':
    case 'contiguous-file':
      // Old archivers mark folders with a trailing slash only.
      return raw.name.endsWith('/') ? 'directory' : 'file';
    case 'directory':
      return 'directory';
    case 'symlink':
      return 'symlink';
    case 'link':
      return 'hardlink';
    default:
      return 'other';
  }
}

function unreadable(error: Error): Error {
  return new Error(`tar: unreadable archive (${error.message})`, { cause: error });
}

function drainedOrClosed(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const settle = (): void => {
      stream.off('drain', settle);
      stream.off('close', settle);
      resolve();
    };
    stream.once('drain', settle);
    stream.once('close', settle);
  });
}
