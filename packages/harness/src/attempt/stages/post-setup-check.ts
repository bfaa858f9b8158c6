import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { relativeToRun, snapshotGitDirectory } from '../../artifacts/attempt-paths.js';
import type { PreparedWorkspace } from '../../git/prepare-workspace.js';
import { WorkTreeSnapshots } from '../../git/work-tree-snapshots.js';
import { excludingPathspecs, protectedPathspecs } from '../../verdict/protected-pathspecs.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';

export interface PostSetupState {
  /** Host git over the work tree, with the harness's own git directory (removed when the attempt ends). */
  snapshots: WorkTreeSnapshots;
  /** The work tree right after setup: what the agent's diff is taken from. */
  afterSetupTree: string;
}

/**
 * Records the work tree after setup (`logs/post_setup_status.txt` and `post_setup_diff.patch`),
 * read by host git with the harness's own git directory: the work tree and its `.git` are
 * sandbox-written, so nothing in them is run or read as configuration. Changes to protected
 * paths are the task's (setup may put its tests in place) and are not counted. With
 * `enforceClean`, a changed tree stops the attempt unless the task sets
 * `validation.enforce_clean_setup: false`.
 */
export async function checkPostSetup(context: AttemptContext, prepared: PreparedWorkspace, options: { enforceClean: boolean }): Promise<PostSetupState> {
  context.enterStage('post_setup_check');
  const started = performance.now();
  const { paths } = context;
  const snapshots = await WorkTreeSnapshots.create({
    gitDir: snapshotGitDirectory(paths.workspaceDir),
    sourceGitDir: prepared.sourceGitDir,
    commitSha: prepared.commitSha,
    workTree: prepared.repoDir,
    logFile: path.join(paths.logDir, 'git.log'),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  context.onCleanup(() => snapshots.remove());
  const afterSetup = await snapshots.snapshot();
  const pathspecs = excludingPathspecs(protectedPathspecs(context.task));
  const changed = await snapshots.changedPaths(prepared.commitSha, afterSetup.tree, pathspecs);
  const diff = changed.length === 0 ? '' : (await snapshots.diff(prepared.commitSha, afterSetup.tree, pathspecs)).toString('utf8');
  context.gitMs += performance.now() - started;

  const statusFile = path.join(paths.logDir, 'post_setup_status.txt');
  const diffFile = path.join(paths.logDir, 'post_setup_diff.patch');
  await writeFile(statusFile, changed.map((entry) => `${entry.status} ${entry.path}\n`).join(''));
  await writeFile(diffFile, diff);
  context.artifact('post_setup_status', statusFile);
  context.artifact('post_setup_diff', diffFile);
  context.stages.push({ stage: 'post_setup_check', durationMs: performance.now() - started, log: relativeToRun(paths.runDir, statusFile) });

  const isEnforced = options.enforceClean && (context.task.validation?.enforce_clean_setup ?? true);
  if (changed.length > 0 && isEnforced) {
    const shown = changed.slice(0, 5).map((entry) => `${entry.status} ${entry.path}`).join(', ');
    throw new AttemptStop(
      'SETUP_DIRTY_WORKTREE',
      `setup changed the work tree (${changed.length} path${changed.length === 1 ? '' : 's'}: ${shown}${changed.length > 5 ? ', ...' : ''}); set validation.enforce_clean_setup: false to allow it`,
    );
  }
  context.throwIfAborted();
  return { snapshots, afterSetupTree: afterSetup.tree };
}
