import { lstat, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { SandboxError } from '../contract/sandbox-error.js';

/**
 * An empty host folder a warm sandbox mounts as its workspace, standing in for a folder the
 * spec (`mountWorkspace`) names only at hand-out. A bind mount follows its folder, not its path:
 * at hand-out the spec's folder's entries are moved into the slot and the slot takes the folder's
 * name, so the running container sees exactly what the caller prepared, at the caller's path.
 * Needs both on one file system (renames only, nothing is copied).
 */
export class MountSlot {
  private constructor(readonly folder: string) {}

  /** A new empty slot under `slotsDir` (made if missing). */
  static async create(slotsDir: string): Promise<MountSlot> {
    await mkdir(slotsDir, { recursive: true });
    return new MountSlot(await mkdtemp(path.join(slotsDir, 'slot-')));
  }

  /**
   * Whether a slot under `slotsDir` can stand in for `target`: same file system, same owner as a
   * slot this process makes. Undefined when it can, else the reason.
   */
  static async whyNotFor(target: string, slotsDir: string): Promise<string | undefined> {
    let targetStats;
    try {
      targetStats = await stat(target);
    } catch {
      return `mountWorkspace "${target}" does not exist`;
    }
    if (!targetStats.isDirectory()) return `mountWorkspace "${target}" is not a folder`;
    await mkdir(slotsDir, { recursive: true });
    const slotsStats = await stat(slotsDir);
    if (slotsStats.dev !== targetStats.dev) return `mountWorkspace "${target}" is on another file system than the pool's mount slots (${slotsDir})`;
    const uid = process.getuid?.();
    const gid = process.getgid?.();
    if (uid !== undefined && gid !== undefined && (targetStats.uid !== uid || targetStats.gid !== gid)) {
      return `mountWorkspace "${target}" belongs to ${targetStats.uid}:${targetStats.gid}, not to this process (${uid}:${gid}), who owns the warm sandboxes' folders`;
    }
    return undefined;
  }

  /** Moves `target`'s entries into the slot and renames the slot to `target`. On failure the entries go back. */
  async takePlaceOf(target: string): Promise<void> {
    const names = await readdir(target);
    const moved: string[] = [];
    try {
      for (const name of names) {
        await rename(path.join(target, name), path.join(this.folder, name));
        moved.push(name);
      }
      await rmdir(target);
      await rename(this.folder, target);
    } catch (error) {
      await mkdir(target, { recursive: true }).catch(() => undefined);
      for (const name of moved) await rename(path.join(this.folder, name), path.join(target, name)).catch(() => undefined);
      throw new SandboxError('internal', `cannot put the workspace "${target}" into a warm sandbox's mounted folder ${this.folder}: ${(error as Error).message}`, {
        subject: target,
        cause: error,
      });
    }
  }

  /** Removes the slot folder if it is still one (not handed out). */
  async remove(): Promise<void> {
    const stats = await lstat(this.folder).catch(() => undefined);
    if (stats !== undefined) await rm(this.folder, { recursive: true, force: true });
  }
}
