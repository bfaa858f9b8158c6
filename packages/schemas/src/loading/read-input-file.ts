import { constants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { InputFileError } from '../errors/input-file-error.js';
import type { InputFileProblem } from '../errors/input-file-problem.js';
import type { ValidationIssue } from '../errors/validation-issue.js';

/**
 * Largest input file read (1 MiB): task, scenario, matrix, agent script, env and config files. Checked
 * with `stat` before a byte is read. Task and scenario files are a few kilobytes; the YAML parser needs
 * up to 40 bytes of memory per byte of a long quoted value, so 1 MiB keeps `ab validate` under 200 MB.
 */
export const MAX_INPUT_FILE_BYTES = 1024 * 1024;

export type InputFileEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export type ReadInputFileResult =
  | { text: string; encoding: InputFileEncoding; byteLength: number; problem?: undefined }
  | { text?: undefined; problem: InputFileProblem };

export interface ReadInputFileOptions {
  /** Default `MAX_INPUT_FILE_BYTES`. */
  maxBytes?: number;
}

const CHUNK_BYTES = 64 * 1024;
// O_NONBLOCK: a FIFO swapped in after the `stat` check opens at once instead of waiting for a writer.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
  return `${bytes} bytes`;
}

function describeKind(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

function notAFile(info: Stats): InputFileProblem {
  return { kind: 'not_a_file', message: `expected a regular file, found ${describeKind(info)}; only regular files are read` };
}

function tooLarge(size: number, maxBytes: number, isGrowing = false): InputFileProblem {
  const found = isGrowing ? `it grew past ${formatBytes(maxBytes)} while being read` : `it is ${formatBytes(size)} (${size.toLocaleString('en-US')} bytes)`;
  return { kind: 'too_large', message: `file too large: ${found}; the limit for input files is ${formatBytes(maxBytes)}` };
}

function systemProblem(error: unknown): InputFileProblem {
  const code = (error as NodeJS.ErrnoException).code;
  // ENOTDIR: a part of the path is a file, so this file cannot exist either.
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'not_found', message: 'file not found' };
  if (code === 'EISDIR') return { kind: 'not_a_file', message: 'expected a regular file, found a directory; only regular files are read' };
  if (code === 'EACCES' || code === 'EPERM') return { kind: 'unreadable', message: 'cannot read file: permission denied' };
  return { kind: 'unreadable', message: `cannot read file (${code ?? (error instanceof Error ? error.message : String(error))})` };
}

/** 1-based line and column (in characters) of a character index of `text`. */
function positionOf(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
    line += 1;
    lineStart = at + 1;
  }
  return { line, column: index - lineStart + 1 };
}

/** Byte offset of the first byte that does not start or continue a valid UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    let length: number;
    let min: number;
    if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [length, min] = [3, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [length, min] = [4, 0x10000];
    else return index;
    if (index + length > bytes.length) return index;
    let codePoint = lead & (0xff >> (length + 1));
    for (let offset = 1; offset < length; offset += 1) {
      const next = bytes[index + offset] as number;
      if ((next & 0xc0) !== 0x80) return index;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return index;
    index += length;
  }
  return -1;
}

/** 1-based line and column (in characters) of a byte offset of UTF-8 bytes. */
function positionOfByte(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let lineStart = 0;
  let line = 1;
  for (let index = 0; index < offset; index += 1) {
    if (bytes[index] === 0x0a) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: new TextDecoder('utf-8').decode(bytes.subarray(lineStart, offset)).length + 1 };
}

function invalidUtf8(bytes: Uint8Array, offset: number): InputFileProblem {
  const byte = (bytes[offset] as number).toString(16).toUpperCase().padStart(2, '0');
  return { kind: 'encoding', message: `not valid UTF-8: byte 0x${byte} at byte offset ${offset} cannot start or continue a character; save the file as UTF-8 text`, ...positionOfByte(bytes, offset) };
}

/** Offset of the first C0 control byte other than tab, line feed and carriage return, or of DEL; -1 when none. */
function firstControlByte(bytes: Uint8Array): number {
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index] as number;
    if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f) return index;
  }
  return -1;
}

// YAML allows tab, line feed and carriage return among the C0 controls, and NEL among the C1 ones.
const NON_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u0080-\u0084\u0086-\u009F\uFFFE\uFFFF]/;

function controlProblem(codePoint: number, position: { line: number; column: number }): InputFileProblem {
  const name = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  const hint = codePoint === 0 ? ' (a binary file, or UTF-16 without a byte-order mark?)' : '';
  return { kind: 'not_text', message: `not a text file: control character ${name} found${hint}; input files are UTF-8 text`, ...position };
}

function nonTextProblem(text: string): InputFileProblem | undefined {
  const match = NON_TEXT.exec(text);
  if (match === null) return undefined;
  return controlProblem(match[0].charCodeAt(0), positionOf(text, match.index));
}

/** The text of a file's bytes: UTF-8 (a leading byte-order mark dropped), or UTF-16 when it starts with a UTF-16 byte-order mark. */
function decode(bytes: Buffer): { text: string; encoding: InputFileEncoding } | { problem: InputFileProblem } {
  const starts = (...prefix: number[]): boolean => prefix.every((byte, index) => bytes[index] === byte);
  if (starts(0x00, 0x00, 0xfe, 0xff) || starts(0xff, 0xfe, 0x00, 0x00)) {
    return { problem: { kind: 'encoding', message: 'the file is UTF-32 (it starts with a UTF-32 byte-order mark); save it as UTF-8' } };
  }
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff)) {
    const encoding: InputFileEncoding = bytes[0] === 0xff ? 'utf-16le' : 'utf-16be';
    const body = Buffer.from(bytes.subarray(2));
    if (body.length % 2 !== 0) return { problem: { kind: 'encoding', message: `the file starts with a ${encoding.toUpperCase()} byte-order mark but has an odd number of bytes; save it as UTF-8` } };
    if (encoding === 'utf-16be') body.swap16();
    try {
      return { text: new TextDecoder('utf-16le', { fatal: true }).decode(body), encoding };
    } catch {
      return { problem: { kind: 'encoding', message: `the file starts with a ${encoding.toUpperCase()} byte-order mark but is not valid ${encoding.toUpperCase()}; save it as UTF-8` } };
    }
  }
  const body = starts(0xef, 0xbb, 0xbf) ? bytes.subarray(3) : bytes;
  // A control byte says "binary" better than the invalid UTF-8 that usually follows it.
  const control = firstControlByte(body);
  if (control !== -1) return { problem: controlProblem(body[control] as number, positionOfByte(body, control)) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body), encoding: 'utf-8' };
  } catch {
    const offset = firstInvalidUtf8(body);
    return { problem: invalidUtf8(body, offset === -1 ? 0 : offset) };
  }
}

async function readBounded(handle: FileHandle, maxBytes: number): Promise<Buffer | InputFileProblem> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) return tooLarge(total, maxBytes, true);
    chunks.push(bytesRead === CHUNK_BYTES ? chunk : chunk.subarray(0, bytesRead));
  }
  return Buffer.concat(chunks, total);
}

/**
 * Reads a user's input file (task, scenario, matrix, script, env or config file) within bounds, never
 * throwing for bad input: only a regular file is read (a directory, FIFO or device is refused by name,
 * without blocking), at most `maxBytes` (checked before reading), as UTF-8 text (a UTF-8 byte-order mark
 * is dropped; a file with a UTF-16 byte-order mark is decoded as UTF-16; UTF-32, invalid UTF-8 and
 * control characters such as NUL are refused with their line and column).
 */
export async function readInputFile(file: string, options: ReadInputFileOptions = {}): Promise<ReadInputFileResult> {
  const maxBytes = options.maxBytes ?? MAX_INPUT_FILE_BYTES;
  let info: Stats;
  try {
    info = await stat(file);
  } catch (error) {
    return { problem: systemProblem(error) };
  }
  if (!info.isFile()) return { problem: notAFile(info) };
  if (info.size > maxBytes) return { problem: tooLarge(info.size, maxBytes) };
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    return { problem: systemProblem(error) };
  }
  let bytes: Buffer | InputFileProblem;
  try {
    // The path may have been swapped for something else between `stat` and `open`.
    const opened = await handle.stat();
    if (!opened.isFile()) return { problem: notAFile(opened) };
    if (opened.size > maxBytes) return { problem: tooLarge(opened.size, maxBytes) };
    bytes = await readBounded(handle, maxBytes);
  } catch (error) {
    return { problem: systemProblem(error) };
  } finally {
    await handle.close().catch(() => undefined);
  }
  if (!Buffer.isBuffer(bytes)) return { problem: bytes };
  const decoded = decode(bytes);
  if ('problem' in decoded) return { problem: decoded.problem };
  const nonText = nonTextProblem(decoded.text);
  if (nonText !== undefined) return { problem: nonText };
  return { text: decoded.text, encoding: decoded.encoding, byteLength: bytes.length };
}

/** A read problem as a validation issue of `file` (at its line and column, or at 1:1). */
export function inputFileIssue(file: string, problem: InputFileProblem): ValidationIssue {
  return { file, line: problem.line ?? 1, column: problem.column ?? 1, path: '', message: problem.message, severity: 'error' };
}

/** `readInputFile` for callers that want the text or an error: throws an `InputFileError` naming the file. */
export async function readInputText(file: string, options: ReadInputFileOptions = {}): Promise<string> {
  const result = await readInputFile(file, options);
  if (result.problem !== undefined) throw new InputFileError(file, result.problem);
  return result.text;
}
