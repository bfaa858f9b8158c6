import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendJsonLine, writeJsonAtomic } from './record-files.js';
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';

const scratchDirectory = useTemporaryDirectory({ prefix: 'ab-record-files-' });

describe('record files', () => {
  it('writes JSON into a new folder and replaces it whole, leaving no temporary file', async () => {
    const file = path.join(scratchDirectory.path, 'run', 'run.json');
    await writeJsonAtomic(file, { status: 'running' });
    await writeJsonAtomic(file, { status: 'completed' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ status: 'completed' });
    expect(await readdir(path.dirname(file))).toEqual(['run.json']);
  });

  it('appends one line per record', async () => {
    const file = path.join(scratchDirectory.path, 'attempts.jsonl');
    await appendJsonLine(file, { task_id: 'a' });
    await appendJsonLine(file, { task_id: 'b' });
    expect((await readFile(file, 'utf8')).split('\n')).toEqual(['{"task_id":"a"}', '{"task_id":"b"}', '']);
  });
});
