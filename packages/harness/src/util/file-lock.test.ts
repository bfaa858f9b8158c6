import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { releaseFileLock, tryAcquireFileLock, withFileLock } from './file-lock.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';

describe('file locks', () => {
  const temporary = useTemporaryDirectory({ prefix: 'agentbench-lock-' });

  it('is exclusive while its owner lives', async () => {
    const lock = path.join(temporary.path, 'a.lock');
    expect(await tryAcquireFileLock(lock)).toBe(true);
    expect(JSON.parse(await readFile(lock, 'utf8'))).toEqual({ pid: process.pid, hostname: hostname() });
    expect(await tryAcquireFileLock(lock)).toBe(false);
    await releaseFileLock(lock);
    expect(await tryAcquireFileLock(lock)).toBe(true);
  });

  it('takes over a lock whose process is gone', async () => {
    const lock = path.join(temporary.path, 'b.lock');
    const finished = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    await writeFile(lock, JSON.stringify({ pid: Number(finished.stdout), hostname: hostname() }));
    expect(await tryAcquireFileLock(lock)).toBe(true);
  });

  it('serialises actions on one lock', async () => {
    const lock = path.join(temporary.path, 'c.lock');
    const order: string[] = [];
    const action = (name: string) => async () => {
      order.push(`${name} start`);
      await new Promise((resolve) => setImmediate(resolve));
      order.push(`${name} end`);
    };
    await Promise.all([withFileLock(lock, action('one')), withFileLock(lock, action('two'))]);
    expect(order).toEqual(['one start', 'one end', 'two start', 'two end']);
  });
});
