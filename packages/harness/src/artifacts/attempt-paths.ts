import path from 'node:path';

/** Where one attempt's files go inside its run directory. */
export interface AttemptPaths {
  runDir: string;
  /** Logs of every command of the attempt (the sandbox's logDir). */
  logDir: string;
  /** Host folder mounted as the task's workdir; the repository is at `<workspaceDir>/repo`. */
  workspaceDir: string;
}

/** A suite run's layout: `logs/<task_id>/` and `workspace/<task_id>/`. */
export function suiteAttemptPaths(runDir: string, taskId: string): AttemptPaths {
  return { runDir, logDir: path.join(runDir, 'logs', taskId), workspaceDir: path.join(suiteWorkspacesDir(runDir), taskId) };
}

/** The folder of a suite run's task workspaces. */
export function suiteWorkspacesDir(runDir: string): string {
  return path.join(runDir, 'workspace');
}

/** A single-task run's layout: `logs/` and `workspace/`. */
export function taskRunPaths(runDir: string): AttemptPaths {
  return { runDir, logDir: path.join(runDir, 'logs'), workspaceDir: path.join(runDir, 'workspace') };
}

/** A path as stored in run.json and records: relative to the run directory, with `/`. */
export function relativeToRun(runDir: string, target: string): string {
  return path.relative(runDir, target).split(path.sep).join('/');
}

/**
 * The harness's own git directory for an attempt's snapshots (see WorkTreeSnapshots): beside the
 * workspace, never inside it, so no sandbox mount reaches it.
 */
export function snapshotGitDirectory(workspaceDir: string): string {
  return path.join(path.dirname(workspaceDir), `.${path.basename(workspaceDir)}.snapshots.git`);
}

/**
 * Where the clone stage lets git fill the repository before moving it into the workspace: beside
 * the workspace (so on its file system: the move is a rename), never inside it, because a sandbox
 * pool's hand-out moves the workspace folder and nothing may write into it meanwhile.
 */
export function cloneStagingDirectory(workspaceDir: string): string {
  return path.join(path.dirname(workspaceDir), `.${path.basename(workspaceDir)}.clone`);
}
