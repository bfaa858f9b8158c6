import { existsSync } from 'node:fs';
import { open, readFile, rm, truncate } from 'node:fs/promises';
import * as v from 'valibot';
import { AttemptRecordSchema, type AttemptRecord } from '@agentbench/schemas';
import { ArtifactWriteError, asArtifactWriteError } from '../errors/artifact-write-error.js';
import { RunDirectoryError } from '../errors/run-directory-error.js';

/**
 * Appends one record as one line and syncs it to disk before returning, so a crash (even
 * SIGKILL or a power cut after the call returns) loses no finished record. The line goes in one
 * `write`; when that fails or falls short (a full disk), the file is cut back to where it was,
 * so the records before stay readable and no partial line is left. A full or read-only disk is
 * an ArtifactWriteError naming the file.
 */
export async function appendAttemptRecord(file: string, record: AttemptRecord): Promise<void> {
  const line = Buffer.from(`${JSON.stringify(record)}\n`);
  let handle;
  try {
    handle = await open(file, 'a');
  } catch (error) {
    throw asArtifactWriteError(error, file);
  }
  try {
    const { size } = await handle.stat();
    try {
      const { bytesWritten } = await handle.write(line, 0, line.length);
      if (bytesWritten !== line.length) throw Object.assign(new Error(`short write: ${bytesWritten} of ${line.length} bytes`), { code: 'ENOSPC' });
      await handle.sync();
    } catch (error) {
      await handle.truncate(size).catch(() => undefined);
      throw asArtifactWriteError(error, file);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Appends the record; when the disk is full, the attempt's kept workspace (the bulk of what it
 * wrote, and the least needed) is removed and the append tried once more: the record matters
 * more. The record then says the workspace was not kept.
 */
export async function appendAttemptRecordFreeingWorkspace(file: string, record: AttemptRecord, workspaceDir: string): Promise<void> {
  try {
    await appendAttemptRecord(file, record);
  } catch (error) {
    if (!ArtifactWriteError.isInstance(error) || !error.isOutOfSpace || !existsSync(workspaceDir)) throw error;
    await rm(workspaceDir, { recursive: true, force: true });
    delete record.artifact_paths['workspace'];
    delete record.artifact_paths['workspace_manifest'];
    await appendAttemptRecord(file, record);
  }
}

export interface AttemptsFileContent {
  records: AttemptRecord[];
  /** The unfinished last line a crash left behind (without a newline), when there is one. */
  tornLine?: string;
  /** Byte length of the complete lines: where the next record must start. */
  completeBytes: number;
}

/**
 * Reads attempts.jsonl. A last line without its newline is a write cut short by a crash: it is
 * returned as `tornLine`, not parsed. Any other line that is not a valid AttemptRecord is an error
 * naming the line, because silently dropping a finished record would rerun its task.
 */
export async function readAttemptRecords(file: string): Promise<AttemptsFileContent> {
  let buffer: Buffer;
  try {
    buffer = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], completeBytes: 0 };
    throw new RunDirectoryError(file, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  const lastNewline = buffer.lastIndexOf(0x0a);
  const completeBytes = lastNewline + 1;
  const complete = buffer.subarray(0, completeBytes).toString('utf8');
  const rest = buffer.subarray(completeBytes).toString('utf8');
  const records: AttemptRecord[] = [];
  complete.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new RunDirectoryError(file, `line ${index + 1} is not valid JSON (${(error as Error).message}); fix or remove that line to resume`);
    }
    const parsed = v.safeParse(AttemptRecordSchema, value);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const field = issue?.path?.map((item) => String(item.key)).join('.') ?? '';
      throw new RunDirectoryError(file, `line ${index + 1} is not an AttemptRecord (${field === '' ? '' : `${field}: `}${issue?.message ?? 'invalid'})`);
    }
    records.push(parsed.output);
  });
  const content: AttemptsFileContent = { records, completeBytes };
  if (rest.trim() !== '') content.tornLine = rest;
  return content;
}

/** Cuts a torn last line off, so the next append starts on a line of its own. */
export async function dropTornLine(file: string, content: AttemptsFileContent): Promise<void> {
  if (content.tornLine === undefined) return;
  try {
    await truncate(file, content.completeBytes);
  } catch (error) {
    throw asArtifactWriteError(error, file);
  }
}
