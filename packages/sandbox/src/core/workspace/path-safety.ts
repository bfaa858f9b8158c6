import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute as isHostAbsolute, join as hostJoin, relative as hostRelative, resolve as hostResolve, sep as hostSeparator } from 'node:path';
import { posix } from 'node:path';
import { PathEscapeError, SandboxError, SymlinkBlockedError } from '../../contract/sandbox-error.js';

/**
 * Resolves `path` against the sandbox workspace `workdir` with POSIX semantics, lexically
 * (no file system access), and returns the absolute sandbox path.
 * Relative paths resolve against `workdir`; absolute ones must already lie inside it.
 * Throws `PathEscapeError` when the result is outside `workdir` (through `..` or an
 * absolute path elsewhere).
 */
export function resolveWorkspacePath(workdir: string, path: string): string {
  if (!posix.isAbsolute(workdir)) {
    throw new SandboxError('invalid_spec', `workdir must be an absolute POSIX path, found "${workdir}"`, {
      subject: workdir,
    });
  }
  if (path.includes('\0')) {
    throw new SandboxError('invalid_spec', `path ${JSON.stringify(path)} contains a NUL byte`, { subject: path });
  }
  const root = posix.resolve(workdir);
  const resolved = posix.resolve(root, path);
  if (!isInsidePosix(root, resolved)) throw new PathEscapeError(path, root);
  return resolved;
}

/**
 * Maps a sandbox path to the host folder backing the workspace: `workdir` ↔ `hostRoot`.
 * Lexical only; pair with `assertNoSymlinkEscape` before touching the file.
 */
export function workspacePathToHost(hostRoot: string, workdir: string, path: string): string {
  const sandboxPath = resolveWorkspacePath(workdir, path);
  const relativePath = posix.relative(posix.resolve(workdir), sandboxPath);
  return relativePath === '' ? hostResolve(hostRoot) : hostResolve(hostRoot, ...relativePath.split('/'));
}

/**
 * For backends whose workspace is a host folder: the real path of the deepest existing
 * ancestor of `hostPath` (the path itself when it exists, following any final symlink)
 * must stay inside the real path of `hostRoot`. Otherwise a symbolic link inside the
 * workspace would let a read or write reach the host, so `SymlinkBlockedError` is thrown.
 * A link whose target cannot be resolved at all (`/proc/1/root/…` without the right to
 * follow it: EACCES) cannot be shown to stay inside, so it is refused the same way.
 * Returns the real path it checked.
 */
export async function assertNoSymlinkEscape(hostRoot: string, hostPath: string): Promise<string> {
  const realRoot = await realpath(hostRoot);
  const absolutePath = hostResolve(hostPath);
  return checkInside({ realRoot, lexicalRoot: hostResolve(hostRoot) }, absolutePath, displayPath(hostRoot, absolutePath), 0);
}

// Links the kernel follows before giving up with ELOOP (Linux MAXSYMLINKS).
const maximumLinkDepth = 40;

interface Roots {
  /** The workspace's real path. */
  realRoot: string;
  /** The workspace's path as given (links below it are the workspace's own). */
  lexicalRoot: string;
}

async function checkInside(roots: Roots, absolutePath: string, shownPath: string, depth: number): Promise<string> {
  const { realRoot } = roots;
  let probe = absolutePath;
  for (;;) {
    let realProbe: string;
    try {
      realProbe = await realpath(probe);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new SymlinkBlockedError(shownPath, probe);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        // Any other failure (EACCES, ENAMETOOLONG…) on the way through a link: its target
        // cannot be checked, so the link is refused like one that leaves. The target of a
        // link being followed (depth > 0) is a link's target by definition.
        if (depth > 0) throw new SymlinkBlockedError(shownPath, absolutePath);
        const link = await firstLinkBelow(roots.lexicalRoot, probe);
        if (link !== undefined) throw new SymlinkBlockedError(shownPath, link);
        throw error;
      }
      // A dangling link is followed by a later write (creating its target), so its
      // target must stay inside too.
      const danglingTarget = await readDanglingLink(probe);
      if (danglingTarget !== undefined) {
        if (depth >= maximumLinkDepth) throw new SymlinkBlockedError(shownPath, danglingTarget);
        await checkInside(roots, danglingTarget, shownPath, depth + 1);
      }
      const parent = dirname(probe);
      if (parent === probe) return realRoot;
      probe = parent;
      continue;
    }
    if (!isInsideHost(realRoot, realProbe)) throw new SymlinkBlockedError(shownPath, realProbe);
    return realProbe;
  }
}

/** The target of the first symbolic link on the way from `root` down to `path`, when `path` lies below `root`. */
async function firstLinkBelow(root: string, path: string): Promise<string | undefined> {
  const relativePath = hostRelative(root, path);
  if (relativePath === '' || relativePath === '..' || relativePath.startsWith(`..${hostSeparator}`) || isHostAbsolute(relativePath)) return undefined;
  let current = root;
  for (const part of relativePath.split(hostSeparator)) {
    current = hostJoin(current, part);
    const stats = await lstat(current).catch(() => undefined);
    if (stats === undefined) return undefined;
    if (stats.isSymbolicLink()) return hostResolve(dirname(current), await readlink(current));
  }
  return undefined;
}

async function readDanglingLink(path: string): Promise<string | undefined> {
  try {
    const stats = await lstat(path);
    if (!stats.isSymbolicLink()) return undefined;
    return hostResolve(dirname(path), await readlink(path));
  } catch {
    return undefined;
  }
}

function isInsidePosix(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return candidate.startsWith(prefix);
}

function isInsideHost(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const relativePath = hostRelative(root, candidate);
  return relativePath !== '' && !relativePath.startsWith(`..${hostSeparator}`) && relativePath !== '..' && !isHostAbsolute(relativePath);
}

function displayPath(hostRoot: string, absolutePath: string): string {
  const relativePath = hostRelative(hostResolve(hostRoot), absolutePath);
  return relativePath === '' ? '.' : relativePath;
}
