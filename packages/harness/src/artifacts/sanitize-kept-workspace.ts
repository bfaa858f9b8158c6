import { randomBytes } from 'node:crypto';
import { constants as fsConstants, type Stats } from 'node:fs';
import { chmod, lchown, lstat, open, readlink, rename, symlink, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { symlinkContainment } from '@agentbench/sandbox';
import { HarnessError } from '../errors/harness-error.js';
import { defaultWalkSettings, removeEntry, walkDirectory, type OpenDirectory, type WalkEntry, type WalkSettings } from './directory-walk.js';

/** Deepest folder level kept by default (the workspace's own entries are level 1). */
export const DEFAULT_SANITIZE_MAX_DEPTH = 256;
/** Changes listed by path in a summary by default; the counts cover all of them. */
export const DEFAULT_LISTED_CHANGES = 100;
/** Characters of a listed path kept (names are sandbox-written). */
const listedPathCharacters = 512;

/** What was done to one entry. */
export type WorkspaceChangeAction =
  /** setuid, setgid, sticky or group/other write removed (`detail`: old → new mode). */
  | 'mode_stripped'
  /** A device node, FIFO, socket or unknown type removed. */
  | 'special_file_removed'
  /** A symbolic link that is absolute or leads outside the workspace removed. */
  | 'symlink_removed'
  /** A file (or link) with more than one name replaced by a private copy. */
  | 'hard_link_copied'
  /** A folder deeper than `maxDepth` removed with everything below it. */
  | 'too_deep_removed'
  /** An entry that could not be fixed, removed instead. */
  | 'removed_after_error'
  /** An entry that could be neither fixed nor removed: the workspace is not safe to keep. */
  | 'failed';

export interface WorkspaceChange {
  /** Path relative to the workspace, `/`-separated (cut at 512 characters). */
  path: string;
  action: WorkspaceChangeAction;
  detail?: string;
}

export interface SanitizeKeptWorkspaceOptions {
  /** Owner given to everything kept. Default: this process's effective uid and gid. */
  owner?: { uid: number; gid: number };
  /**
   * Where the summary is written as JSON. Default: beside the workspace,
   * `<parent>/<name>.sanitized.json` (`workspace.sanitized.json` for a run's `workspace/`);
   * `false`: not written.
   */
  manifestPath?: string | false;
  /** Deepest folder level kept; deeper folders are removed whole. Default 256. */
  maxDepth?: number;
  /** Changes listed by path in the summary. Default 100. */
  maxListedChanges?: number;
}

export interface SanitizeSummary {
  /** The workspace folder, absolute. */
  workspace: string;
  /** Where the summary was written, if it was. */
  manifestPath?: string;
  /** False when an entry could be neither fixed nor removed: do not keep the workspace then. */
  isSafe: boolean;
  /** Entries seen below the workspace, and of which kind. */
  entries: number;
  directories: number;
  files: number;
  symlinks: number;
  /** Entries whose mode lost setuid/setgid/sticky or group/other write. */
  modesStripped: number;
  /** Of those, entries that had setuid, setgid or sticky. */
  privilegeBitsStripped: number;
  specialFilesRemoved: number;
  symlinksRemoved: number;
  hardLinksCopied: number;
  /** Entries whose owner or group was changed to `owner`. */
  ownersChanged: number;
  tooDeepRemoved: number;
  removedAfterError: number;
  failures: number;
  /** The first `maxListedChanges` changes. */
  changes: WorkspaceChange[];
  /** Changes beyond the list (counted above). */
  changesNotListed: number;
  /**
   * Disk use of what is kept, measured by the same walk (`lstat` blocks × 512, the workspace
   * folder included, as `measureDiskUse` counts; a private copy by its own blocks): after the
   * walk no kept file has a second name, so nothing is counted twice. Whole when `isSafe`.
   */
  bytes: number;
  /** Deepest level of an entry kept (the workspace's own entries are level 1; 0 when empty). */
  deepestLevel: number;
}

const fileOpenFlags = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;
const newFileFlags = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW;
const privilegeBits = 0o7000;
const keptFileBits = 0o755;

/** Mode a kept file gets: no setuid/setgid/sticky, no group/other write, owner read/write. */
export function sanitizedFileMode(mode: number): number {
  return (mode & keptFileBits) | 0o600;
}

/** Mode a kept folder gets: the same, with owner search so the host can walk and remove it. */
export function sanitizedDirectoryMode(mode: number): number {
  return (mode & keptFileBits) | 0o700;
}

/**
 * Makes a workspace a sandbox wrote safe to keep on the host, in place, once the sandbox is
 * gone (no writer may run at the same time). Everything in it is attacker-written, so it
 * walks with `lstat` and folders opened `O_NOFOLLOW` (see `walkDirectory`), never following
 * a link, and:
 *
 * - strips setuid, setgid and sticky bits and group/other write (owner read/write kept);
 * - removes device nodes, FIFOs, sockets;
 * - removes symbolic links that are absolute or resolve outside the workspace
 *   (`symlinkContainment`; relative links that stay inside are kept);
 * - replaces every file or link with more than one name by a private copy, so no change
 *   (and no later reader) ever reaches an inode shared with a file outside;
 * - gives everything to `owner` (a bwrap sandbox's files belong to uid 65534), which also
 *   clears file capabilities (`security.capability`) from regular files;
 * - removes folders deeper than `maxDepth` whole.
 *
 * Memory and open descriptors are bounded by the depth, not the size, of the tree. Returns
 * a summary, also written as JSON beside the workspace (`manifestPath`). An entry that can
 * be neither fixed nor removed makes `isSafe` false: the caller should not keep the
 * workspace then.
 */
export async function sanitizeKeptWorkspace(workspaceDir: string, options: SanitizeKeptWorkspaceOptions = {}): Promise<SanitizeSummary> {
  return sanitizeWithSettings(workspaceDir, options, defaultWalkSettings);
}

/** `sanitizeKeptWorkspace` with the walk's settings (tests run it without /proc too). */
export async function sanitizeWithSettings(workspaceDir: string, options: SanitizeKeptWorkspaceOptions, settings: WalkSettings): Promise<SanitizeSummary> {
  const workspace = resolve(workspaceDir);
  const owner = options.owner ?? { uid: process.geteuid?.() ?? 0, gid: process.getegid?.() ?? 0 };
  const maxDepth = options.maxDepth ?? DEFAULT_SANITIZE_MAX_DEPTH;
  const maxListed = options.maxListedChanges ?? DEFAULT_LISTED_CHANGES;
  const summary: SanitizeSummary = {
    workspace,
    isSafe: true,
    entries: 0,
    directories: 0,
    files: 0,
    symlinks: 0,
    modesStripped: 0,
    privilegeBitsStripped: 0,
    specialFilesRemoved: 0,
    symlinksRemoved: 0,
    hardLinksCopied: 0,
    ownersChanged: 0,
    tooDeepRemoved: 0,
    removedAfterError: 0,
    failures: 0,
    changes: [],
    changesNotListed: 0,
    bytes: 0,
    deepestLevel: 0,
  };
  // What stays is measured here, so keeping the workspace under a budget needs no second walk.
  const countKept = (depth: number, blocks: number): void => {
    summary.bytes += blocks * 512;
    if (depth > summary.deepestLevel) summary.deepestLevel = depth;
  };
  const record = (path: string, action: WorkspaceChangeAction, detail?: string): void => {
    if (summary.changes.length >= maxListed) {
      summary.changesNotListed += 1;
      return;
    }
    const shown = path.length > listedPathCharacters ? `${path.slice(0, listedPathCharacters)}…` : path;
    summary.changes.push({ path: shown === '' ? '.' : shown, action, ...(detail === undefined ? {} : { detail }) });
  };
  const countMode = (path: string, oldMode: number, newMode: number): void => {
    const strippedBits = oldMode & ~newMode & 0o7777;
    if (strippedBits === 0) return;
    summary.modesStripped += 1;
    if ((strippedBits & privilegeBits) !== 0) summary.privilegeBitsStripped += 1;
    record(path, 'mode_stripped', `${octal(oldMode)} -> ${octal(newMode)}`);
  };
  const countOwner = (stats: Stats): void => {
    if (stats.uid !== owner.uid || stats.gid !== owner.gid) summary.ownersChanged += 1;
  };
  // An entry that could not be made safe: remove it; failing that, the workspace is unsafe.
  const removeAfterError = async (entry: WalkEntry, error: unknown): Promise<void> => {
    try {
      await removeEntry(entry.parent.base, entry.name, settings);
      summary.removedAfterError += 1;
      record(entry.relativePath, 'removed_after_error', errorCode(error));
    } catch (removalError) {
      summary.failures += 1;
      summary.isSafe = false;
      record(entry.relativePath, 'failed', `${errorCode(error)}; removal: ${errorCode(removalError)}`);
    }
  };

  let rootBase: string | undefined;
  const onDirectory = async (directory: OpenDirectory, stats: Stats): Promise<void> => {
    if (directory.depth === 0) {
      rootBase = directory.base;
      countKept(0, stats.blocks);
    }
    const mode = stats.mode & 0o7777;
    const newMode = sanitizedDirectoryMode(mode);
    if (newMode !== mode) await directory.handle.chmod(newMode);
    if (stats.uid !== owner.uid || stats.gid !== owner.gid) await directory.handle.chown(owner.uid, owner.gid);
    countMode(directory.relativePath, mode, newMode);
    countOwner(stats);
  };

  const onEntry = async (entry: WalkEntry): Promise<boolean> => {
    summary.entries += 1;
    const { stats } = entry;
    try {
      if (stats.isDirectory()) {
        summary.directories += 1;
        if (entry.depth > maxDepth) {
          await removeEntry(entry.parent.base, entry.name, settings);
          summary.tooDeepRemoved += 1;
          record(entry.relativePath, 'too_deep_removed', `deeper than ${maxDepth} levels`);
          return false;
        }
        // Without root, a folder we own but cannot read must be opened to be walked.
        if ((stats.mode & 0o500) !== 0o500 && stats.uid === process.geteuid?.()) await chmod(entry.path, (stats.mode & 0o7777) | 0o700);
        countKept(entry.depth, stats.blocks);
        return true;
      }
      if (stats.isFile()) {
        summary.files += 1;
        countKept(entry.depth, await sanitizeFile(entry));
        return false;
      }
      if (stats.isSymbolicLink()) {
        summary.symlinks += 1;
        const blocks = await sanitizeSymlink(entry);
        if (blocks !== undefined) countKept(entry.depth, blocks);
        return false;
      }
      await unlink(entry.path);
      summary.specialFilesRemoved += 1;
      record(entry.relativePath, 'special_file_removed', kindOf(stats));
    } catch (error) {
      await removeAfterError(entry, error);
    }
    return false;
  };

  /** Returns the blocks the kept file takes. */
  const sanitizeFile = async (entry: WalkEntry): Promise<number> => {
    const { stats } = entry;
    const mode = stats.mode & 0o7777;
    const newMode = sanitizedFileMode(mode);
    if (stats.nlink > 1) {
      // Never chmod or chown an inode shared with a name elsewhere: copy it first.
      const copyBlocks = await replaceByPrivateCopy(entry, newMode, owner);
      summary.hardLinksCopied += 1;
      record(entry.relativePath, 'hard_link_copied', `${stats.nlink} names`);
      countMode(entry.relativePath, mode, newMode);
      countOwner(stats);
      return copyBlocks;
    }
    if (newMode !== mode) {
      try {
        await withVerifiedFile(entry, async (handle) => {
          await handle.chown(owner.uid, owner.gid);
          await handle.chmod(newMode);
        });
      } catch (error) {
        // Without root, a file of ours we may not read (mode 0) cannot be opened: change it
        // by path once lstat shows it is still the same regular file.
        if ((error as NodeJS.ErrnoException).code !== 'EACCES' || stats.uid !== process.geteuid?.()) throw error;
        const again = await lstat(entry.path);
        if (!again.isFile() || again.dev !== stats.dev || again.ino !== stats.ino) throw error;
        await lchown(entry.path, owner.uid, owner.gid);
        await chmod(entry.path, newMode);
      }
    } else {
      // Always, even to the same owner: chown clears file capabilities (security.capability).
      await lchown(entry.path, owner.uid, owner.gid);
    }
    countMode(entry.relativePath, mode, newMode);
    countOwner(stats);
    return stats.blocks;
  };

  /** Returns the blocks the kept link takes; undefined when it was removed. */
  const sanitizeSymlink = async (entry: WalkEntry): Promise<number | undefined> => {
    const target = await readlink(entry.path);
    const containment = await symlinkContainment(rootBase as string, entry.relativePath, target);
    if (!containment.isInside) {
      await unlink(entry.path);
      summary.symlinksRemoved += 1;
      record(entry.relativePath, 'symlink_removed', `-> ${cut(target)} (${containment.reason})`);
      return undefined;
    }
    let { blocks } = entry.stats;
    if (entry.stats.nlink > 1) {
      await unlink(entry.path);
      await symlink(target, entry.path);
      blocks = (await lstat(entry.path)).blocks;
      summary.hardLinksCopied += 1;
      record(entry.relativePath, 'hard_link_copied', `${entry.stats.nlink} names`);
    }
    if (entry.stats.uid !== owner.uid || entry.stats.gid !== owner.gid) {
      await lchown(entry.path, owner.uid, owner.gid);
      summary.ownersChanged += 1;
    }
    return blocks;
  };

  const workspaceStats = await lstat(workspace).catch(() => undefined);
  if (workspaceStats === undefined || !workspaceStats.isDirectory()) {
    throw new HarnessError(`sanitizeKeptWorkspace: ${workspace} is not a folder${workspaceStats?.isSymbolicLink() === true ? ' (it is a symbolic link)' : ''}`);
  }
  // A folder that could not be opened was counted when it was met: what is removed no longer counts.
  const onOpenFailed = async (entry: WalkEntry, error: unknown): Promise<void> => {
    await removeAfterError(entry, error);
    summary.bytes -= entry.stats.blocks * 512;
  };
  await walkDirectory(workspace, { onDirectory, onEntry, onOpenFailed }, settings);

  if (options.manifestPath !== false) {
    const manifestPath = options.manifestPath ?? sanitizeManifestPath(workspace);
    summary.manifestPath = manifestPath;
    await writeManifest(manifestPath, summary);
  }
  return summary;
}

/** Where `sanitizeKeptWorkspace` writes its summary by default: `<parent>/<name>.sanitized.json`. */
export function sanitizeManifestPath(workspaceDir: string): string {
  const workspace = resolve(workspaceDir);
  return join(dirname(workspace), `${basename(workspace)}.sanitized.json`);
}

/** Opens a regular file without following a link, checks it is the one `lstat` saw, and hands it over. */
async function withVerifiedFile(entry: WalkEntry, action: (handle: FileHandle) => Promise<void>): Promise<void> {
  const handle = await open(entry.path, fileOpenFlags);
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.dev !== entry.stats.dev || stats.ino !== entry.stats.ino) {
      throw Object.assign(new Error(`${entry.relativePath} changed while it was being sanitized`), { code: 'ECHANGED' });
    }
    await action(handle);
  } finally {
    await handle.close();
  }
}

/**
 * Copies a multiply-linked file into a new file of ours (mode and owner set before it is named)
 * and renames it over the entry; returns the blocks the copy takes.
 */
async function replaceByPrivateCopy(entry: WalkEntry, mode: number, owner: { uid: number; gid: number }): Promise<number> {
  const temporaryPath = `${entry.parent.base}/.agentbench-copy-${randomBytes(6).toString('hex')}`;
  const copy = await open(temporaryPath, newFileFlags, 0o600);
  let isRenamed = false;
  try {
    await withVerifiedFile(entry, async (source) => {
      const buffer = Buffer.allocUnsafe(1024 * 1024);
      let position = 0;
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        let written = 0;
        while (written < bytesRead) written += (await copy.write(buffer, written, bytesRead - written)).bytesWritten;
        position += bytesRead;
      }
    });
    await copy.chown(owner.uid, owner.gid);
    await copy.chmod(mode);
    await copy.utimes(entry.stats.atime, entry.stats.mtime).catch(() => undefined);
    const { blocks } = await copy.stat();
    await copy.close();
    await rename(temporaryPath, entry.path);
    isRenamed = true;
    return blocks;
  } finally {
    await copy.close().catch(() => undefined);
    if (!isRenamed) await unlink(temporaryPath).catch(() => undefined);
  }
}

async function writeManifest(path: string, summary: SanitizeSummary): Promise<void> {
  const manifest = {
    workspace: summary.workspace,
    sanitized_at: new Date().toISOString(),
    is_safe: summary.isSafe,
    entries: summary.entries,
    directories: summary.directories,
    files: summary.files,
    symlinks: summary.symlinks,
    modes_stripped: summary.modesStripped,
    privilege_bits_stripped: summary.privilegeBitsStripped,
    special_files_removed: summary.specialFilesRemoved,
    symlinks_removed: summary.symlinksRemoved,
    hard_links_copied: summary.hardLinksCopied,
    owners_changed: summary.ownersChanged,
    too_deep_removed: summary.tooDeepRemoved,
    removed_after_error: summary.removedAfterError,
    failures: summary.failures,
    changes: summary.changes,
    changes_not_listed: summary.changesNotListed,
  };
  const temporaryPath = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temporaryPath, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx', mode: 0o644 });
    await rename(temporaryPath, path);
  } catch (error) {
    // A full disk: no half-written manifest is left beside the workspace.
    await unlink(temporaryPath).catch(() => undefined);
    throw error;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isSocket()) return 'socket';
  return 'unknown type';
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;
}

function cut(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200);
}
