import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SandboxError } from '../contract/sandbox-error.js';

/** `nobody`/`nogroup`: who root inside a sandbox is on the host when we run as root. */
export const UNPRIVILEGED_ID = 65534;

/**
 * The host user every process of a bwrap sandbox runs as. Root inside the sandbox is this
 * user outside (a user namespace maps one to the other), so whatever the sandbox can do to
 * the host, this user can do: never root.
 */
export interface SandboxUser {
  uid: number;
  gid: number;
  /**
   * Whether we run as root and so drop to `UNPRIVILEGED_ID` (with setpriv) before bwrap
   * starts: folders the sandbox writes must then be owned by that user, and folders it
   * mounts must be reachable by it.
   */
  isDropped: boolean;
}

/** Root: the sandbox runs as 65534 (nobody). Any other user: as that user itself. */
export function sandboxUser(): SandboxUser {
  const uid = process.getuid?.() ?? UNPRIVILEGED_ID;
  const gid = process.getgid?.() ?? UNPRIVILEGED_ID;
  return uid === 0 ? { uid: UNPRIVILEGED_ID, gid: UNPRIVILEGED_ID, isDropped: true } : { uid, gid, isDropped: false };
}

/** The argv that runs a program as `user` when we drop privileges (`setpriv … --`), else nothing. */
export function dropPrivilegesArguments(user: SandboxUser, setprivPath: string | undefined): string[] {
  if (!user.isDropped) return [];
  if (setprivPath === undefined) throw new SandboxError('backend_unavailable', 'the bwrap backend runs sandboxes as uid 65534 when started as root, which needs setpriv (util-linux)');
  return [setprivPath, `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--'];
}

/**
 * Whether `user` (no supplementary groups) can reach `path`: every folder above it is
 * searchable (the owner's bits for the owner, the group's for the group, else the others').
 * bwrap resolves a bind mount's source path as that user, so a folder under a 0700 home
 * cannot be mounted directly.
 */
export async function isReachableBy(path: string, user: SandboxUser): Promise<boolean> {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    const stats = await stat(folder).catch(() => undefined);
    if (stats === undefined) return false;
    const searchBit = stats.uid === user.uid ? 0o100 : stats.gid === user.gid ? 0o010 : 0o001;
    if ((stats.mode & searchBit) === 0) return false;
    if (dirname(folder) === folder) return true;
  }
}
