import { execFile } from 'node:child_process';
import { lchown, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SandboxError } from '../../contract/sandbox-error.js';

const runFile = promisify(execFile);

/** The host user that must own what a host-folder workspace holds (the bwrap sandbox's user when we run as root). */
export interface FileOwner {
  uid: number;
  gid: number;
}

/**
 * Entries changed in-process before handing the rest to `chown -R`: a small tree (the
 * per-sandbox folders, a fresh workspace) costs less than starting a process, a repository
 * with its `.git` far more.
 */
const IN_PROCESS_LIMIT = 1000;

/**
 * Gives each path and everything under it to `owner`. Links are changed themselves and
 * never followed, so a link in a tree cannot make us change a file elsewhere.
 */
export async function giveTreeTo(paths: string | readonly string[], owner: FileOwner): Promise<void> {
  const list = typeof paths === 'string' ? [paths] : paths;
  const budget = { remaining: IN_PROCESS_LIMIT };
  try {
    for (const path of list) await giveInProcess(path, (await lstat(path)).isDirectory(), owner, budget);
    return;
  } catch (error) {
    if (budget.remaining > 0) throw new SandboxError('internal', `could not give ${list.join(', ')} to uid ${owner.uid}: ${(error as Error).message}`, { cause: error });
  }
  // A large tree: one `chown -R` (-h -P: links themselves, never traversed) does all of it.
  try {
    await runFile('chown', ['-R', '-h', '-P', '--', `${owner.uid}:${owner.gid}`, ...list]);
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new SandboxError('internal', `could not give ${list.join(', ')} to uid ${owner.uid}: ${stderr || (error as Error).message}`, { cause: error });
  }
}

async function giveInProcess(path: string, isFolder: boolean, owner: FileOwner, budget: { remaining: number }): Promise<void> {
  budget.remaining -= 1;
  if (budget.remaining <= 0) throw new Error('too many entries to change in-process');
  await lchown(path, owner.uid, owner.gid);
  if (!isFolder) return;
  const entries = await readdir(path, { withFileTypes: true });
  // `isDirectory()` is the entry's own type (a link to a folder is a link): links are never entered.
  await Promise.all(entries.map((entry) => giveInProcess(join(path, entry.name), entry.isDirectory(), owner, budget)));
}
