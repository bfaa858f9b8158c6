import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { DEFAULT_LOG_CAP_BYTES, openCommandLog } from './command-log.js';

describe('openCommandLog', () => {
  const folder = useTemporaryDirectory();

  it('keeps both streams whole under the cap, stdout then stderr then the footer', async () => {
    const path = join(folder.path, 'small.log');
    const log = await openCommandLog(path, 'echo hi', 100);
    log.stdout.write(Buffer.from('out 1\n'));
    log.stderr.write(Buffer.from('err 1\n'));
    log.stdout.write(Buffer.from('out 2\n'));
    const summary = await log.close('--- exit 0 ---\n');
    expect(summary).toEqual({ isTruncated: false, stdoutBytes: 12, stderrBytes: 6 });
    expect(await readFile(path, 'utf8')).toBe('$ echo hi\n--- stdout ---\nout 1\nout 2\n\n--- stderr ---\nerr 1\n\n--- exit 0 ---\n');
    // The side file of stderr is gone.
    expect(await readdir(folder.path)).toEqual(['small.log']);
  });

  it('keeps a stream of exactly the cap unmarked', async () => {
    const path = join(folder.path, 'exact.log');
    const log = await openCommandLog(path, 'x', 10);
    log.stdout.write(Buffer.from('01234'));
    log.stdout.write(Buffer.from('56789'));
    expect((await log.close(undefined)).isTruncated).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('$ x\n--- stdout ---\n0123456789\n--- stderr ---\n');
  });

  it('keeps the head and the tail of each stream with a marker naming the dropped bytes', async () => {
    const path = join(folder.path, 'flood.log');
    const log = await openCommandLog(path, 'flood', 10);
    for (const piece of ['0123456789', 'abcdefghij', 'ABCDEFGHIJ']) log.stdout.write(Buffer.from(piece));
    log.stderr.write(Buffer.from('e'.repeat(1000)));
    log.stderr.write(Buffer.from('Z'));
    const summary = await log.close('--- exit 0 ---\n');
    expect(summary).toEqual({ isTruncated: true, stdoutBytes: 30, stderrBytes: 1001 });
    expect(await readFile(path, 'utf8')).toBe(
      [
        '$ flood',
        '--- stdout ---',
        '01234',
        '[… 20 of 30 bytes dropped by agentbench …]',
        'FGHIJ',
        '--- stderr ---',
        'eeeee',
        '[… 991 of 1,001 bytes dropped by agentbench …]',
        'eeeeZ',
        '--- exit 0 ---',
        '',
      ].join('\n'),
    );
  });

  it('stays at the cap however much comes, in chunks of any size', async () => {
    const path = join(folder.path, 'big.log');
    const cap = 64 * 1024;
    const log = await openCommandLog(path, 'big', cap);
    const chunk = Buffer.alloc(100_003, 'x');
    for (let index = 0; index < 300; index++) log.stdout.write(chunk);
    const summary = await log.close(undefined);
    expect(summary.stdoutBytes).toBe(300 * 100_003);
    const text = await readFile(path, 'utf8');
    expect(text).toContain(`[… ${(300 * 100_003 - cap).toLocaleString('en-US')} of ${(300 * 100_003).toLocaleString('en-US')} bytes dropped by agentbench …]`);
    expect(text.replace(/[^x]/g, '').length).toBe(cap);
  });

  it('never writes half a character on either side of the marker', async () => {
    const path = join(folder.path, 'utf8.log');
    const log = await openCommandLog(path, 'é', 7);
    // 2-byte characters: the 4-byte head ends inside none, the 3-byte tail starts inside one.
    log.stdout.write(Buffer.from('é'.repeat(20)));
    await log.close(undefined);
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('\uFFFD');
    expect(text).toBe('$ é\n--- stdout ---\néé\n[… 34 of 40 bytes dropped by agentbench …]\né\n--- stderr ---\n');
  });

  it('holds no more than the cap of a head split across many small writes', async () => {
    const path = join(folder.path, 'bytes.log');
    const log = await openCommandLog(path, 'x', 8);
    for (const byte of Buffer.from('0123456789abcdef')) log.stdout.write(Buffer.from([byte]));
    await log.close(undefined);
    expect(await readFile(path, 'utf8')).toBe('$ x\n--- stdout ---\n0123\n[… 8 of 16 bytes dropped by agentbench …]\ncdef\n--- stderr ---\n');
  });

  it('defaults to 10 MiB a stream', () => {
    expect(DEFAULT_LOG_CAP_BYTES).toBe(10 * 1024 * 1024);
  });
});
