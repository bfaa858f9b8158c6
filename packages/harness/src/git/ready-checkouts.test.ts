import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evictLeastRecentlyUsedCheckouts, markCheckoutUsed } from './ready-checkouts.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';

describe('ready checkouts in the repository cache', () => {
  const temporary = useTemporaryDirectory({ prefix: 'agentbench-ready-checkouts-' });

  async function checkoutUsedAt(dir: string, sha: string, secondsAgo: number): Promise<string> {
    const ready = path.join(dir, sha);
    await mkdir(path.join(ready, '.git'), { recursive: true });
    await writeFile(path.join(ready, 'file.txt'), sha);
    const when = new Date(Date.now() - secondsAgo * 1000);
    await utimes(ready, when, when);
    return ready;
  }

  it('keeps the most recently used ones and removes the rest whole, leaving nothing aside', async () => {
    const dir = path.join(temporary.path, 'checkouts');
    const oldest = await checkoutUsedAt(dir, 'a'.repeat(40), 300);
    await checkoutUsedAt(dir, 'b'.repeat(40), 200);
    await checkoutUsedAt(dir, 'c'.repeat(40), 100);
    // Used just now: the oldest by creation becomes the newest by use.
    await markCheckoutUsed(oldest);
    await mkdir(path.join(dir, `.${'d'.repeat(40)}.tmp-1-ab`), { recursive: true });

    expect(await evictLeastRecentlyUsedCheckouts(dir, 2)).toEqual(['b'.repeat(40)]);
    // The half-built one (a dot name) is another process's and is left alone.
    expect((await readdir(dir)).sort()).toEqual([`.${'d'.repeat(40)}.tmp-1-ab`, 'a'.repeat(40), 'c'.repeat(40)]);
  });

  it('removes nothing while the cache holds no more than it keeps', async () => {
    const dir = path.join(temporary.path, 'few');
    await checkoutUsedAt(dir, 'e'.repeat(40), 10);
    expect(await evictLeastRecentlyUsedCheckouts(dir, 1)).toEqual([]);
    expect(await evictLeastRecentlyUsedCheckouts(path.join(temporary.path, 'missing'), 1)).toEqual([]);
  });
});
