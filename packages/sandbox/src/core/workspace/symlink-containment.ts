import { lstat, readlink } from 'node:fs/promises';

// Links the kernel follows before giving up with ELOOP (Linux MAXSYMLINKS).
const maximumLinkHops = 40;

/** Why a link does or does not stay inside its tree. */
export type SymlinkContainment =
  | { isInside: true }
  | { isInside: false; reason: 'absolute' | 'above-root' | 'too-many-links' | 'unresolvable' | 'empty' };

/**
 * Whether a symbolic link inside the tree `root` resolves inside `root`, followed the way
 * the kernel would follow it, with `root` as the top (like a chroot):
 *
 * - `linkPath` is the link's path relative to `root` (`/`-separated); the folders above it
 *   must be real folders (the caller walked or created them), `target` is what it points at.
 * - An absolute target is outside. `..` that climbs above `root` is outside.
 * - Links met on the way (the target's own components, and the final one) are read and
 *   followed, at most 40 in all, so `d -> .` plus `l -> d/..` is outside although `d/..`
 *   looks lexically inside.
 * - A missing component ends the file system walk; the rest of the target is resolved
 *   lexically (a dangling link stays in the tree only if it would be created there).
 * - Anything that cannot be checked (EACCES, ENAMETOOLONG, a loop) counts as outside.
 *
 * `root` itself is trusted not to be a link (it may be `/proc/self/fd/N` of a folder opened
 * with `O_NOFOLLOW`). Only `lstat` and `readlink` are used: nothing is followed for real.
 */
export async function symlinkContainment(root: string, linkPath: string, target: string): Promise<SymlinkContainment> {
  if (target === '') return { isInside: false, reason: 'empty' };
  if (target.startsWith('/')) return { isInside: false, reason: 'absolute' };
  const resolved = linkPath.split('/').filter((part) => part !== '' && part !== '.');
  // The link lives in its parent folder; a link standing for the root itself has no inside parent.
  if (resolved.pop() === undefined) return { isInside: false, reason: 'above-root' };
  let pending = target.split('/');
  let hops = 1;
  let isMissing = false;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (resolved.pop() === undefined) return { isInside: false, reason: 'above-root' };
      continue;
    }
    if (isMissing) {
      resolved.push(part);
      continue;
    }
    const candidate = `${root}/${[...resolved, part].join('/')}`;
    let isLink: boolean;
    try {
      isLink = (await lstat(candidate)).isSymbolicLink();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { isInside: false, reason: 'unresolvable' };
      isMissing = true;
      resolved.push(part);
      continue;
    }
    if (!isLink) {
      resolved.push(part);
      continue;
    }
    hops += 1;
    if (hops > maximumLinkHops) return { isInside: false, reason: 'too-many-links' };
    let next: string;
    try {
      next = await readlink(candidate);
    } catch {
      return { isInside: false, reason: 'unresolvable' };
    }
    if (next.startsWith('/')) return { isInside: false, reason: 'absolute' };
    if (next === '') return { isInside: false, reason: 'empty' };
    // The link's target is relative to the folder holding it: `resolved` as it stands.
    pending = [...next.split('/'), ...pending];
  }
  return { isInside: true };
}
