import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/** The bytes of every file below `folder` (a link counts as itself, never followed): what a run left on disk. */
export async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const entryPath = path.join(folder, entry.name);
    total += entry.isDirectory() ? await folderBytes(entryPath) : (await lstat(entryPath)).size;
  }
  return total;
}
