import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes JSON through a synced temporary file and a rename over `file` (creating its folder):
 * a reader sees the old or the new file, never half of one, whatever moment a crash strikes.
 */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    // A full disk fails the write: no half-written temporary file is left beside the record.
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Appends one JSON line and syncs it, so a finished record survives a crash right after. */
export async function appendJsonLine(file: string, value: unknown): Promise<void> {
  const handle = await open(file, 'a');
  try {
    await handle.appendFile(`${JSON.stringify(value)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
