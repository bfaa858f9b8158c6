import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { relativeToRun, snapshotGitDirectory } from '../../artifacts/attempt-paths.js';
import type { PreparedWorkspace } from '../../git/prepare-workspace.js';
import { WorkTreeSnapshots, type ChangedPath } from '../../git/work-tree-snapshots.js';
import { excludingPathspecs, protectedPathspecs } from '../../verdict/protected-pathspecs.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';

export interface PostSetupState {
  /** Host git over the work tree, with the harness's own git directory (removed when the attempt ends). */
  snapshots: WorkTreeSnapshots;
  /** The work tree right after setup: what the agent's diff is taken from. */
  afterSetupTree: string;
}

/** What host git read of the work tree once setup ended, before anything is written or judged. */
export interface PostSetupReading extends PostSetupState {
  /** Paths setup changed, protected paths left out. */
  changed: ChangedPath[];
  diff: string;
  startedAt: number;
}

/**
 * Makes the harness's own git directory for the attempt's snapshots (see WorkTreeSnapshots). It
 * reads nothing of the work tree, so the pipeline starts it as soon as the clone is there, beside
 * setup; its removal is registered at once, so an attempt that ends in setup leaves nothing.
 */
export function prepareSnapshots(context: AttemptContext, prepared: PreparedWorkspace): Promise<WorkTreeSnapshots> {
  const { paths } = context;
  const gitDir = snapshotGitDirectory(paths.workspaceDir);
  const started = performance.now();
  const creating = WorkTreeSnapshots.create({
    gitDir,
    sourceGitDir: prepared.sourceGitDir,
    commitSha: prepared.commitSha,
    workTree: prepared.repoDir,
    logFile: path.join(paths.logDir, 'git.log'),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  const created = creating.finally(() => {
    context.gitMs += performance.now() - started;
  });
  // Awaited by the post-setup check; until then (or when setup fails first) its failure must not be unhandled.
  created.catch(() => undefined);
  context.onHostCleanup(async () => {
    await created.catch(() => undefined);
    await rm(gitDir, { recursive: true, force: true });
  });
  return created;
}

/**
 * Snapshots the work tree after setup and lists what setup changed, by host git with the
 * harness's own git directory: the work tree and its `.git` are sandbox-written, so nothing in
 * them is run or read as configuration. Changes to protected paths are the task's (setup may put
 * its tests in place) and are not counted. Setup's commands have ended: the pipeline runs it
 * while the sandbox's network is being cut (no sandbox command runs then).
 */
export async function readPostSetupTree(context: AttemptContext, prepared: PreparedWorkspace, snapshotsReady: Promise<WorkTreeSnapshots>): Promise<PostSetupReading> {
  const startedAt = performance.now();
  const snapshots = await snapshotsReady;
  const pathspecs = excludingPathspecs(protectedPathspecs(context.task));
  const { snapshot: afterSetup, changed } = await snapshots.snapshotComparedWith(prepared.commitSha, pathspecs);
  const diff = changed.length === 0 ? '' : (await snapshots.diff(prepared.commitSha, afterSetup.tree, pathspecs)).toString('utf8');
  context.gitMs += performance.now() - startedAt;
  return { snapshots, afterSetupTree: afterSetup.tree, changed, diff, startedAt };
}

/**
 * Records the work tree after setup (`logs/post_setup_status.txt` and `post_setup_diff.patch`)
 * from what `readPostSetupTree` read. With `enforceClean`, a changed tree stops the attempt unless
 * the task sets `validation.enforce_clean_setup: false`.
 */
export async function checkPostSetup(context: AttemptContext, reading: PostSetupReading, options: { enforceClean: boolean }): Promise<PostSetupState> {
  const { paths } = context;
  const { changed, diff } = reading;
  const statusFile = path.join(paths.logDir, 'post_setup_status.txt');
  const diffFile = path.join(paths.logDir, 'post_setup_diff.patch');
  await writeFile(statusFile, changed.map((entry) => `${entry.status} ${entry.path}\n`).join(''));
  await writeFile(diffFile, diff);
  context.artifact('post_setup_status', statusFile);
  context.artifact('post_setup_diff', diffFile);
  context.stages.push({ stage: 'post_setup_check', durationMs: performance.now() - reading.startedAt, log: relativeToRun(paths.runDir, statusFile) });

  const isEnforced = options.enforceClean && (context.task.validation?.enforce_clean_setup ?? true);
  if (changed.length > 0 && isEnforced) {
    const shown = changed.slice(0, 5).map((entry) => `${entry.status} ${entry.path}`).join(', ');
    throw new AttemptStop(
      'SETUP_DIRTY_WORKTREE',
      `setup changed the work tree (${changed.length} path${changed.length === 1 ? '' : 's'}: ${shown}${changed.length > 5 ? ', ...' : ''}); set validation.enforce_clean_setup: false to allow it`,
    );
  }
  context.throwIfAborted();
  return { snapshots: reading.snapshots, afterSetupTree: reading.afterSetupTree };
}
