import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attemptRecordFor } from '../../test/helpers/attempt-record.js';
import { RunDirectoryError } from '../errors/run-directory-error.js';
import { appendAttemptRecord, dropTornLine, readAttemptRecords } from './attempts-file.js';

describe('attempts.jsonl', () => {
  let folder: string;
  let file: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'agentbench-attempts-'));
    file = path.join(folder, 'attempts.jsonl');
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('appends one line per record and reads them back', async () => {
    await appendAttemptRecord(file, attemptRecordFor('a', null));
    await appendAttemptRecord(file, attemptRecordFor('b', 'TIMEOUT'));
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')).toHaveLength(3);
    const content = await readAttemptRecords(file);
    expect(content.records.map((record) => [record.task_id, record.result.failure_reason])).toEqual([['a', null], ['b', 'TIMEOUT']]);
    expect(content.tornLine).toBeUndefined();
  });

  it('reads a missing file as no records', async () => {
    expect(await readAttemptRecords(file)).toEqual({ records: [], completeBytes: 0 });
  });

  it('tolerates a torn last line and cuts it off so the next record starts on its own line', async () => {
    await appendAttemptRecord(file, attemptRecordFor('a', null));
    const torn = JSON.stringify(attemptRecordFor('b', null)).slice(0, 57);
    await appendFile(file, torn);
    const content = await readAttemptRecords(file);
    expect(content.records.map((record) => record.task_id)).toEqual(['a']);
    expect(content.tornLine).toBe(torn);
    await dropTornLine(file, content);
    await appendAttemptRecord(file, attemptRecordFor('c', null));
    expect((await readAttemptRecords(file)).records.map((record) => record.task_id)).toEqual(['a', 'c']);
  });

  it('refuses a corrupt line in the middle, naming it', async () => {
    await appendAttemptRecord(file, attemptRecordFor('a', null));
    await appendFile(file, '{"not": "a record"}\n');
    await appendAttemptRecord(file, attemptRecordFor('c', null));
    const error = await readAttemptRecords(file).catch((caught: unknown) => caught);
    expect(RunDirectoryError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(new RegExp(`^${file}: line 2 is not an AttemptRecord \\(schema_version: `));
    await writeFile(file, 'garbage\n');
    await expect(readAttemptRecords(file)).rejects.toThrow(/line 1 is not valid JSON/);
  });
});
