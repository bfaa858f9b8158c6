import { constants as fsConstants } from 'node:fs';
import { chmod, link, lstat, mkdir, open, rmdir, stat, symlink, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SandboxError } from '../contract/sandbox-error.js';
import { symlinkContainment } from '../core/workspace/symlink-containment.js';
import { readTar } from './tar-archive.js';

export interface ExtractOptions {
  /** Name of the archive's top entry (the basename of what was archived). */
  archiveRoot: string;
  /** Host path that the top entry becomes. */
  hostPath: string;
}

/** Permission bits an extracted entry may keep: no setuid, setgid, sticky, group or other write. */
export const EXTRACTED_MODE_MASK = 0o755;

const newFileFlags = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW;

/**
 * Extracts a `getArchive` stream on the host so that `archiveRoot` lands at `hostPath`.
 * The archive is sandbox-written, so nothing in it may land outside `hostPath` or with
 * privileges:
 *
 * - Entries must stay under the top entry: `..` or an absolute name fails the extraction.
 * - Every folder on the way to an entry is checked with `lstat` and must be a real folder
 *   (a link or file in the way is removed), and files are created new with
 *   `O_EXCL | O_NOFOLLOW` after removing what was there, so neither a link in the archive
 *   nor one already in `hostPath` redirects a write, and an old hard link is never
 *   written through.
 * - Hard links are made last but one, only to a regular file inside `hostPath` reached
 *   through real folders; symbolic links last, and each is removed again unless it
 *   resolves inside `hostPath` (`symlinkContainment`: absolute, `..` above the top and
 *   chains through other links are outside). A link where the archive also has a folder
 *   is dropped (the folder stays).
 * - Devices, FIFOs and other special entries are skipped. Modes keep `0o755` at most
 *   (no setuid, setgid, sticky, group or other write), plus owner read/write (and
 *   search on folders) so the host can read and remove what it got. Owners are the host
 *   process's (entries are created, never chowned).
 *
 * Returns the number of entries read.
 */
export async function extractTarToHost(source: AsyncIterable<Buffer | Uint8Array | string>, options: ExtractOptions): Promise<number> {
  const symlinks: Array<{ target: string; parts: string[] }> = [];
  const hardlinks: Array<{ targetParts: string[]; parts: string[] }> = [];
  // Folders already checked to be real: nothing below replaces a folder, so they stay real.
  const folders: Folders = { root: options.hostPath, known: new Set() };
  let count = 0;
  await readTar(source, async (header, body) => {
    const parts = entryParts(header.path, options);
    count += 1;
    switch (header.type) {
      case 'directory':
        await ensureDirectory(folders, parts, (header.mode & EXTRACTED_MODE_MASK) | 0o700);
        break;
      case 'file': {
        const destination = await prepareEntry(folders, parts);
        if (destination === undefined) break;
        const handle = await open(destination, newFileFlags, 0o600);
        try {
          for await (const chunk of body) {
            let written = 0;
            while (written < chunk.length) written += (await handle.write(chunk, written)).bytesWritten;
          }
          // Explicitly, so the umask does not decide.
          await handle.chmod((header.mode & EXTRACTED_MODE_MASK) | 0o600);
          await handle.utimes(header.mtime, header.mtime).catch(() => undefined);
        } finally {
          await handle.close();
        }
        break;
      }
      case 'symlink':
        symlinks.push({ target: header.linkTarget ?? '', parts });
        break;
      case 'hardlink':
        hardlinks.push({ targetParts: entryParts(header.linkTarget ?? '', options), parts });
        break;
      default:
        // Devices, FIFOs: meaningless on another machine, and never ours to create.
        break;
    }
  });
  for (const entry of hardlinks) {
    if (entry.targetParts.join('/') === entry.parts.join('/')) continue;
    const target = await regularFileThroughFolders(options.hostPath, entry.targetParts);
    if (target === undefined) continue;
    const destination = await prepareEntry(folders, entry.parts);
    if (destination !== undefined) await link(target, destination);
  }
  const created: Array<{ target: string; parts: string[]; path: string }> = [];
  for (const entry of symlinks) {
    // A link standing for the top entry itself would point wherever it likes.
    if (entry.parts.length === 0) continue;
    const destination = await prepareEntry(folders, entry.parts);
    if (destination === undefined) continue;
    await symlink(entry.target, destination);
    created.push({ ...entry, path: destination });
  }
  // Checked once all exist: a link may lead through another one.
  const escaping: string[] = [];
  for (const entry of created) {
    const containment = await symlinkContainment(options.hostPath, entry.parts.join('/'), entry.target);
    if (!containment.isInside) escaping.push(entry.path);
  }
  for (const path of escaping) {
    // A later entry may have put a folder where the link was.
    if ((await lstat(path).catch(ignoreMissing))?.isSymbolicLink() === true) await unlink(path);
  }
  return count;
}

/** The entry's path below the top entry, as parts (empty for the top entry itself). */
function entryParts(entryPath: string, options: ExtractOptions): string[] {
  const parts = entryPath.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..') || entryPath.startsWith('/') || parts[0] !== options.archiveRoot) {
    throw new SandboxError('internal', `copyOut: unexpected archive entry "${entryPath}" (expected it under "${options.archiveRoot}/")`, {
      subject: entryPath,
    });
  }
  return parts.slice(1);
}

function hostPathOf(root: string, parts: string[]): string {
  return parts.length === 0 ? root : join(root, ...parts);
}

interface Folders {
  root: string;
  known: Set<string>;
}

/**
 * Makes every folder from the root down to `parts` a real folder (the root itself is the
 * caller's path: followed if it is a link, created with its parents): a missing one is
 * created, a link or file in the way is removed first.
 */
async function ensureDirectory(folders: Folders, parts: string[], mode?: number): Promise<string> {
  const { root, known } = folders;
  if (!known.has(root)) {
    const rootStats = await stat(root).catch(ignoreMissing);
    if (rootStats !== undefined && !rootStats.isDirectory()) await unlink(root);
    if (rootStats?.isDirectory() !== true) await mkdir(root, { recursive: true, mode: 0o700 });
    known.add(root);
  }
  let current = root;
  for (const part of parts) {
    current = join(current, part);
    if (known.has(current)) continue;
    const stats = await lstat(current).catch(ignoreMissing);
    if (stats !== undefined && !stats.isDirectory()) await unlink(current);
    if (stats?.isDirectory() !== true) await mkdir(current, { mode: 0o700 });
    known.add(current);
  }
  if (mode !== undefined) await chmod(current, mode);
  return current;
}

/**
 * The host path for a new non-folder entry, with its folders made real and whatever was
 * at the path removed; undefined when a folder is there (the folder wins).
 */
async function prepareEntry(folders: Folders, parts: string[]): Promise<string | undefined> {
  if (parts.length > 0) await ensureDirectory(folders, parts.slice(0, -1));
  else await mkdir(dirname(folders.root), { recursive: true });
  const destination = hostPathOf(folders.root, parts);
  const stats = await lstat(destination).catch(ignoreMissing);
  if (stats?.isDirectory() === true) {
    if (parts.length === 0) {
      // The top entry is a file where an (empty) folder is: replace it, as before.
      await rmdir(destination);
      folders.known.delete(destination);
      return destination;
    }
    return undefined;
  }
  if (stats !== undefined) await unlink(destination);
  return destination;
}

/** The path of a regular file reached from `root` through real folders only; else undefined. */
async function regularFileThroughFolders(root: string, parts: string[]): Promise<string | undefined> {
  let current = root;
  for (const [index, part] of parts.entries()) {
    current = join(current, part);
    const stats = await lstat(current).catch(ignoreMissing);
    if (stats === undefined) return undefined;
    const isLast = index === parts.length - 1;
    if (isLast ? !stats.isFile() : !stats.isDirectory()) return undefined;
  }
  return parts.length === 0 ? undefined : current;
}

function ignoreMissing(error: unknown): undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  throw error;
}
