import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASSETTE_FORMAT, HARNESS_VERSION, type CassetteExchange } from '@agentbench/schemas';
import { checkCassetteRun } from './check-cassette-run.js';
import { CassetteFileError } from './errors/cassette-file-error.js';
import { exchangeKey, requestHash } from './normalize-request.js';
import { readCassette } from './read-cassette.js';
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';

const header = { type: 'header', format: CASSETTE_FORMAT, version: 1, created_at: '2026-01-31T12:00:00.000Z', harness_version: HARNESS_VERSION, task_id: 'toy', scenario_id: null, repeat_index: 0, replay_of: null };

function exchange(step: number): CassetteExchange {
  const body = { model: 'm', messages: [{ role: 'user', content: `turn ${step}` }] };
  const hash = requestHash('POST /chat/completions', body);
  return {
    type: 'exchange', role: 'agent', step, endpoint: '/chat/completions', method: 'POST', model: 'm', request_hash: hash, occurrence: 1, repeat_index: 0,
    key: exchangeKey({ requestHash: hash, occurrence: 1, repeatIndex: 0 }), request: { headers: {}, body },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"choices":[]}', is_stream: false }, usage: null, latency_ms: 3, source: 'live', upstream_error: null,
  };
}

describe('readCassette', () => {
  const temporary = useTemporaryDirectory({ prefix: 'cassette-read-' });

  it('reads the header and every exchange', async () => {
    const file = path.join(temporary.path, 'cassette.jsonl');
    await writeFile(file, [header, exchange(1), exchange(2)].map((line) => JSON.stringify(line)).join('\n') + '\n');
    const cassette = await readCassette(file);
    expect(cassette.header.task_id).toBe('toy');
    expect(cassette.exchanges.map((entry) => entry.step)).toEqual([1, 2]);
  });

  it('names the file and the line of a truncated last line', async () => {
    const file = path.join(temporary.path, 'cassette.jsonl');
    const full = [header, exchange(1), exchange(2)].map((line) => JSON.stringify(line)).join('\n');
    await writeFile(file, full.slice(0, full.length - 40));
    await expect(readCassette(file)).rejects.toThrow(`${file}: line 3: cut short`);
    await expect(readCassette(file)).rejects.toSatisfy((error: unknown) => CassetteFileError.isInstance(error) && (error as CassetteFileError).line === 3);
  });

  it('refuses a file that is not a cassette, and an exchange with a missing field, naming the field', async () => {
    const file = path.join(temporary.path, 'other.jsonl');
    await writeFile(file, '{"run_id":"x"}\n');
    await expect(readCassette(file)).rejects.toThrow(`${file}: line 1: not a cassette header (expected "format": "${CASSETTE_FORMAT}", found null)`);
    const { key: _key, ...withoutKey } = exchange(1);
    await writeFile(file, `${JSON.stringify(header)}\n${JSON.stringify(withoutKey)}\n`);
    await expect(readCassette(file)).rejects.toThrow(/line 2: not a cassette exchange: key: /);
    await expect(readCassette(path.join(temporary.path, 'missing.jsonl'))).rejects.toThrow(/missing\.jsonl: no such file/);
  });

  it('refuses a cassette of another task or repeat', async () => {
    const file = path.join(temporary.path, 'cassette.jsonl');
    await writeFile(file, `${JSON.stringify(header)}\n`);
    const cassette = await readCassette(file);
    expect(() => checkCassetteRun(cassette, { taskId: 'toy', repeatIndex: 0 })).not.toThrow();
    expect(() => checkCassetteRun(cassette, { taskId: 'other_task' })).toThrow(`${file}: line 1: recorded for task "toy", not "other_task": this cassette belongs to another run`);
    expect(() => checkCassetteRun(cassette, { repeatIndex: 2 })).toThrow(/recorded for repeat 0, not 2/);
  });
});
