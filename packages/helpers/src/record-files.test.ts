import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendJsonLine, writeJsonAtomic } from './record-files.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'ab-record-files-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('record files', () => {
  it('writes JSON into a new folder and replaces it whole, leaving no temporary file', async () => {
    const file = path.join(folder, 'run', 'run.json');
    await writeJsonAtomic(file, { status: 'running' });
    await writeJsonAtomic(file, { status: 'completed' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ status: 'completed' });
    expect(await readdir(path.dirname(file))).toEqual(['run.json']);
  });

  it('appends one line per record', async () => {
    const file = path.join(folder, 'attempts.jsonl');
    await appendJsonLine(file, { task_id: 'a' });
    await appendJsonLine(file, { task_id: 'b' });
    expect((await readFile(file, 'utf8')).split('\n')).toEqual(['{"task_id":"a"}', '{"task_id":"b"}', '']);
  });
});
