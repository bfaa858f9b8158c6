import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';

/**
 * How many ready checkouts the repository cache keeps. Each holds a commit's work tree and its
 * whole history (what a fresh fetch would hold), so an unbounded set grows by a repository's full
 * size per pinned commit: hundreds of gigabytes over a SWE-bench-sized suite. The newest uses win;
 * an evicted commit is checked out from the mirror again when next asked for.
 */
export const READY_CHECKOUTS_KEPT = 16;

/** Marks a ready checkout as just used (its folder's mtime), so eviction keeps it. */
export async function markCheckoutUsed(ready: string): Promise<void> {
  const now = new Date();
  await utimes(ready, now, now).catch(() => undefined);
}

/**
 * Removes the least recently used ready checkouts beyond `keep`. Each is first renamed to a dot
 * name (which no reader asks for) and then removed, so a reader sees a whole checkout or none; a
 * copy that was under way from it fails and falls back to a fresh checkout. Best effort: a
 * checkout another process removed first, or one that cannot be removed, is skipped.
 */
export async function evictLeastRecentlyUsedCheckouts(checkoutsDir: string, keep: number = READY_CHECKOUTS_KEPT): Promise<string[]> {
  const names = (await readdir(checkoutsDir).catch(() => [] as string[])).filter((name) => !name.startsWith('.'));
  if (names.length <= keep) return [];
  const used = await Promise.all(names.map(async (name) => ({ name, mtimeMs: (await stat(path.join(checkoutsDir, name)).catch(() => undefined))?.mtimeMs ?? 0 })));
  const evicted = used.sort((left, right) => right.mtimeMs - left.mtimeMs).slice(keep).map((entry) => entry.name);
  for (const name of evicted) {
    const aside = path.join(checkoutsDir, `.evicted-${name}-${randomBytes(4).toString('hex')}`);
    const isMoved = await rename(path.join(checkoutsDir, name), aside).then(() => true, () => false);
    if (isMoved) await rm(aside, { recursive: true, force: true }).catch(() => undefined);
  }
  return evicted;
}
