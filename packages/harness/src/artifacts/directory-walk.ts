/**
 * Walking and removing trees a sandbox wrote, without ever following a link.
 *
 * Every folder is opened with `O_DIRECTORY | O_NOFOLLOW` and checked (`fstat`) to be the
 * folder `lstat` saw; its entries are then reached as `/proc/self/fd/<fd>/<name>`, so no
 * path component above an entry can be swapped for a link, and path length never grows
 * with depth. Where `/proc/self/fd` is missing (not Linux) entries are reached by their
 * plain path; each folder is still verified when opened.
 *
 * Memory is bounded by the depth of the tree (one open folder per level, read through
 * `opendir` a few entries at a time), never by its size.
 */
import { existsSync, constants as fsConstants, type Stats } from 'node:fs';
import { lstat, open, opendir, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

const directoryFlags = fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW;

/** Whether entries are reached through `/proc/self/fd` (Linux). Tests may turn it off. */
export interface WalkSettings {
  useProcFileDescriptors: boolean;
}

export const defaultWalkSettings: WalkSettings = { useProcFileDescriptors: existsSync('/proc/self/fd') };

/** A folder the walk holds open. */
export interface OpenDirectory {
  /** Prefix that reaches its entries: `/proc/self/fd/<fd>` (or its plain path without /proc). */
  readonly base: string;
  readonly handle: FileHandle;
  /** Path relative to the walk's root, `/`-separated; '' for the root. */
  readonly relativePath: string;
  /** 0 for the root. */
  readonly depth: number;
}

/** One entry below the root, as `lstat` saw it. */
export interface WalkEntry {
  readonly parent: OpenDirectory;
  readonly name: string;
  /** `<parent.base>/<name>`: reaches the entry without following anything above it. */
  readonly path: string;
  readonly relativePath: string;
  /** 1 for the root's own entries. */
  readonly depth: number;
  readonly stats: Stats;
}

export interface DirectoryVisitor {
  /** A folder, just opened and verified (the root included), before its entries. */
  onDirectory?(directory: OpenDirectory, stats: Stats): Promise<void>;
  /** Every entry below the root. For a folder, return true to walk into it. */
  onEntry(entry: WalkEntry): Promise<boolean | undefined | void>;
  /** A folder that could not be opened, or was not the folder `lstat` saw. Default: throw. */
  onOpenFailed?(entry: WalkEntry, error: unknown): Promise<void>;
}

interface Frame {
  directory: OpenDirectory;
  reader: AsyncIterator<{ name: string }>;
}

/** Opens a folder without following a final link, and checks it is the one `expected` describes. */
export async function openVerifiedDirectory(path: string, expected: Stats | undefined): Promise<{ handle: FileHandle; stats: Stats }> {
  const handle = await open(path, directoryFlags);
  try {
    const stats = await handle.stat();
    if (!stats.isDirectory() || (expected !== undefined && (stats.dev !== expected.dev || stats.ino !== expected.ino))) {
      throw Object.assign(new Error(`${path} changed while it was being walked`), { code: 'ECHANGED' });
    }
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function baseOf(handle: FileHandle, plainPath: string, settings: WalkSettings): string {
  return settings.useProcFileDescriptors ? `/proc/self/fd/${handle.fd}` : plainPath;
}

/**
 * Walks the folder `root` depth first (the root must be a real folder, not a link): the
 * visitor sees each folder once it is open and every entry with its `lstat`. Folders are
 * entered only when `onEntry` says so.
 */
export async function walkDirectory(root: string, visitor: DirectoryVisitor, settings: WalkSettings = defaultWalkSettings): Promise<void> {
  const opened = await openVerifiedDirectory(root, undefined);
  const rootDirectory: OpenDirectory = { base: baseOf(opened.handle, root, settings), handle: opened.handle, relativePath: '', depth: 0 };
  const stack: Frame[] = [];
  try {
    stack.push(await frameOf(rootDirectory));
  } catch (error) {
    await opened.handle.close();
    throw error;
  }
  try {
    await visitor.onDirectory?.(rootDirectory, opened.stats);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      const next = await frame.reader.next();
      if (next.done === true) {
        stack.pop();
        await frame.directory.handle.close();
        continue;
      }
      const { name } = next.value;
      const parent = frame.directory;
      const path = `${parent.base}/${name}`;
      let stats: Stats;
      try {
        stats = await lstat(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const relativePath = parent.relativePath === '' ? name : `${parent.relativePath}/${name}`;
      const entry: WalkEntry = { parent, name, path, relativePath, depth: parent.depth + 1, stats };
      const shouldEnter = await visitor.onEntry(entry);
      if (shouldEnter !== true || !stats.isDirectory()) continue;
      let child: { handle: FileHandle; stats: Stats };
      try {
        child = await openVerifiedDirectory(path, stats);
      } catch (error) {
        if (visitor.onOpenFailed === undefined) throw error;
        await visitor.onOpenFailed(entry, error);
        continue;
      }
      const directory: OpenDirectory = { base: baseOf(child.handle, path, settings), handle: child.handle, relativePath, depth: entry.depth };
      try {
        stack.push(await frameOf(directory));
      } catch (error) {
        await child.handle.close();
        throw error;
      }
      await visitor.onDirectory?.(directory, child.stats);
    }
  } finally {
    // Only after an error: a finished walk has closed every folder.
    for (const frame of stack.reverse()) {
      await frame.reader.return?.().catch(() => undefined);
      await frame.directory.handle.close().catch(() => undefined);
    }
  }
}

async function frameOf(directory: OpenDirectory): Promise<Frame> {
  // A few entries at a time: a folder of a million files is never held in memory.
  const reader = (await opendir(directory.base, { bufferSize: 64 }))[Symbol.asyncIterator]();
  return { directory, reader };
}

/**
 * Removes the entry `name` of the folder reached through `parentBase`, whatever it is, at
 * any depth, never following a link: a folder is emptied bottom-up holding at most two
 * folders open (each level is re-entered through its own `..`), so neither depth nor
 * width costs memory or descriptors. Nothing missing is an error.
 */
export async function removeEntry(parentBase: string, name: string, settings: WalkSettings = defaultWalkSettings): Promise<void> {
  const path = `${parentBase}/${name}`;
  const stats = await lstat(path).catch(ignoreMissing);
  if (stats === undefined) return;
  if (!stats.isDirectory()) {
    await unlink(path).catch(ignoreMissing);
    return;
  }
  let current = (await openVerifiedDirectory(path, stats)).handle;
  let currentPath = path;
  const names: string[] = [];
  try {
    for (;;) {
      const base = baseOf(current, currentPath, settings);
      const folder = await removeFilesUntilFolder(base);
      if (folder !== undefined) {
        const next = (await openVerifiedDirectory(`${base}/${folder.name}`, folder.stats)).handle;
        await current.close();
        current = next;
        currentPath = `${currentPath}/${folder.name}`;
        names.push(folder.name);
        continue;
      }
      const emptied = names.pop();
      if (emptied === undefined) break;
      const parent = await open(`${base}/..`, directoryFlags);
      await current.close();
      current = parent;
      currentPath = dirname(currentPath);
      await rmdir(`${baseOf(current, currentPath, settings)}/${emptied}`);
    }
  } finally {
    await current.close().catch(() => undefined);
  }
  await rmdir(path);
}

/** Removes a path (file, link or folder tree) the same way; the path's parent is the caller's and may be followed. */
export async function removeTree(path: string, settings: WalkSettings = defaultWalkSettings): Promise<void> {
  const parentPath = dirname(path);
  const parent = await open(parentPath, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY).catch(ignoreMissing);
  if (parent === undefined) return;
  try {
    await removeEntry(baseOf(parent, parentPath, settings), basename(path), settings);
  } finally {
    await parent.close();
  }
}

/**
 * Unlinks every non-folder entry until it meets a folder, which it returns; undefined once
 * a pass finds the folder empty. Each pass removes something or throws, so it ends.
 */
async function removeFilesUntilFolder(base: string): Promise<{ name: string; stats: Stats } | undefined> {
  for (;;) {
    let sawEntries = false;
    for await (const entry of await opendir(base, { bufferSize: 64 })) {
      sawEntries = true;
      const path = `${base}/${entry.name}`;
      const stats = await lstat(path).catch(ignoreMissing);
      if (stats === undefined) continue;
      if (stats.isDirectory()) return { name: entry.name, stats };
      await unlink(path).catch(ignoreMissing);
    }
    if (!sawEntries) return undefined;
  }
}

function ignoreMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw error;
}
