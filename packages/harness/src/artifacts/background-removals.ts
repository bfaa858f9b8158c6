import { randomBytes } from 'node:crypto';
import { readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { discardSandboxWorkspace } from './keep-sandbox-workspace.js';

/** The hidden name a workspace is renamed to for its removal (`start`). */
const REMOVING_NAME = /^\..+\.removing-[0-9a-f]{8}$/;

/**
 * The workspaces a run keeps none of, removed in the background once their sandbox is gone, so
 * the removal is off the attempt's critical path (at -j 1 the next task starts meanwhile). Each
 * workspace is first renamed out of the way (one rename, awaited: the task's folder is free at
 * once, for a rerun), then removed as `discardSandboxWorkspace` removes it, links never followed.
 * The run awaits `settle` on every exit, so nothing is left on disk when it ends, and reports
 * what could not be removed.
 */
export class BackgroundRemovals {
  private readonly pending = new Set<Promise<void>>();
  private readonly failures: string[] = [];

  /**
   * Renames `workspaceDir` to a hidden sibling and starts its removal. Throws when the rename
   * fails (the caller removes the folder in place, as before); a folder that is not there is done.
   */
  async start(workspaceDir: string): Promise<void> {
    const removing = path.join(path.dirname(workspaceDir), `.${path.basename(workspaceDir)}.removing-${randomBytes(4).toString('hex')}`);
    try {
      await rename(workspaceDir, removing);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    this.remove(removing, workspaceDir);
  }

  /**
   * Starts the removal of the hidden folders in `workspacesDir` that a run killed mid-removal
   * (SIGKILL, a crash) left behind, for the run that resumes it. The names are the harness's own:
   * a sandbox's mount is the task's folder, so it cannot make a sibling of it.
   */
  async resumeLeftovers(workspacesDir: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(workspacesDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names.filter((entry) => REMOVING_NAME.test(entry))) {
      const leftover = path.join(workspacesDir, name);
      this.remove(leftover, leftover);
    }
  }

  private remove(folder: string, named: string): void {
    // discardSandboxWorkspace never rejects: it returns what went wrong.
    const removal = discardSandboxWorkspace(folder).then((failure) => {
      if (failure !== undefined) this.failures.push(`${named}: ${failure}`);
    });
    this.pending.add(removal);
    void removal.finally(() => this.pending.delete(removal));
  }

  /** Waits for every removal started, those started meanwhile included; returns what could not be removed. */
  async settle(): Promise<string[]> {
    while (this.pending.size > 0) await Promise.all(this.pending);
    return [...this.failures];
  }
}
