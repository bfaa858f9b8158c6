import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * One entry of an install folder: a file by its sha512 (and whether it is executable), a symbolic
 * link by its target (never followed), a folder by its presence.
 */
export type TreeEntry = { type: 'file'; sha512: string; isExecutable: boolean } | { type: 'symlink'; target: string } | { type: 'directory' };

/** Every entry under `folder` by its relative path (`/`-separated), but `skipped` names at the top. */
export async function checksumTree(folder: string, skipped: readonly string[] = []): Promise<Record<string, TreeEntry>> {
  const entries: Record<string, TreeEntry> = {};
  async function visit(relative: string): Promise<void> {
    const names = (await readdir(path.join(folder, relative))).sort();
    for (const name of names) {
      if (relative === '' && skipped.includes(name)) continue;
      const child = relative === '' ? name : `${relative}/${name}`;
      const absolute = path.join(folder, child);
      const stats = await lstat(absolute);
      if (stats.isSymbolicLink()) entries[child] = { type: 'symlink', target: await readlink(absolute) };
      else if (stats.isDirectory()) {
        entries[child] = { type: 'directory' };
        await visit(child);
      } else if (stats.isFile()) entries[child] = { type: 'file', sha512: await sha512OfFile(absolute), isExecutable: (stats.mode & 0o111) !== 0 };
      // Sockets, FIFOs and devices are never part of an npm install: kept out, so a later one shows as a difference.
      else entries[child] = { type: 'file', sha512: 'not-a-regular-file', isExecutable: false };
    }
  }
  await visit('');
  return entries;
}

async function sha512OfFile(file: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

/** The first difference between a recorded tree and the one on disk, in words; undefined when they are the same. */
export function firstTreeDifference(recorded: Record<string, TreeEntry>, actual: Record<string, TreeEntry>): string | undefined {
  for (const [entryPath, entry] of Object.entries(recorded)) {
    const found = actual[entryPath];
    if (found === undefined) return `${entryPath} is missing`;
    if (JSON.stringify(found) !== JSON.stringify(entry)) {
      return found.type !== entry.type ? `${entryPath} is a ${found.type}, recorded as a ${entry.type}` : `${entryPath} changed (its ${entry.type === 'file' ? 'sha512' : 'target'} differs from the one recorded at install)`;
    }
  }
  const added = Object.keys(actual).find((entryPath) => recorded[entryPath] === undefined);
  return added === undefined ? undefined : `${added} was added after the install`;
}
