import { cp, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox } from '@agentbench/sandbox';
import { cloneStagingDirectory } from '../../artifacts/attempt-paths.js';
import { prepareWorkspace, type PreparedWorkspace } from '../../git/prepare-workspace.js';
import type { AttemptContext } from '../attempt-context.js';

export interface ClonedWorkspace {
  prepared: PreparedWorkspace;
  /** The attempt's sandbox, started while git fetched. */
  sandbox: Sandbox;
  /** The repository folder, relative to the sandbox's workdir. */
  repoPath: string;
}

/**
 * Clones the task's repository and pins its commit while the attempt's sandbox starts (neither
 * needs the other until setup runs). A clone failure is reported before a sandbox failure: it
 * says more.
 *
 * The sandbox is asked for with the workspace folder empty, and git fills a staging folder beside
 * it; the repository is renamed into the workspace once the sandbox is there (the running
 * container sees it through its bind mount). So nothing writes into the workspace while the
 * sandbox factory may move it: a warm pool's hand-out renames the folder into a mount slot, which
 * raced with git when git wrote into the workspace itself (ENOTEMPTY). Cold starts keep running
 * beside git, as before.
 */
export async function cloneWhileSandboxStarts(context: AttemptContext): Promise<ClonedWorkspace> {
  const { paths } = context;
  const stagingDir = cloneStagingDirectory(paths.workspaceDir);
  // A killed attempt may have left its staging folder behind.
  await rm(stagingDir, { recursive: true, force: true });
  // The sandbox mounts the workspace: it must exist before the sandbox is asked for.
  await mkdir(paths.workspaceDir, { recursive: true });
  const creating = context.startSandbox();
  // Awaited below; until then its failure must not be unhandled.
  creating.catch(() => undefined);

  const gitLog = path.join(paths.logDir, 'git.log');
  context.artifact('git_log', gitLog);
  context.artifact('workspace', paths.workspaceDir);
  const gitStarted = performance.now();
  let stageStarted = gitStarted;
  let prepared: PreparedWorkspace;
  try {
    prepared = await prepareWorkspace({
      repoUrl: context.loaded.repoUrl,
      commit: context.task.repo.commit,
      workspaceDir: stagingDir,
      logFile: gitLog,
      ...context.repositoryOptions,
      onStage: (stage) => {
        if (stage === 'git_checkout') {
          context.stages.push({ stage: 'git_clone', durationMs: performance.now() - stageStarted });
          stageStarted = performance.now();
        }
        context.enterStage(stage);
      },
    });
  } catch (error) {
    // Wait for the sandbox, so that the attempt's end removes it; what git wrote is kept with the workspace.
    await creating.catch(() => undefined);
    await keepWhatGitWrote(stagingDir, paths.workspaceDir);
    throw error;
  }
  context.stages.push({ stage: 'git_checkout', durationMs: performance.now() - stageStarted });
  context.gitMs += performance.now() - gitStarted;
  context.commitSha = prepared.commitSha;
  context.repositorySource = prepared.source;

  context.enterStage('setup');
  let sandbox: Sandbox;
  try {
    sandbox = await creating;
  } catch (error) {
    await keepWhatGitWrote(stagingDir, paths.workspaceDir);
    throw error;
  }
  const repoDir = await moveStagedRepository(stagingDir, paths.workspaceDir);
  context.throwIfAborted();
  const repoPath = path.relative(paths.workspaceDir, repoDir).split(path.sep).join('/') || '.';
  return { prepared: { ...prepared, repoDir }, sandbox, repoPath };
}

/**
 * Moves `<stagingDir>/repo` to `<workspaceDir>/repo` and removes the staging folder; returns the
 * repository's new path. A rename (the staging folder is beside the workspace), or a copy when the
 * workspace is a mount of another file system. Git keeps no absolute path in the repository.
 */
async function moveStagedRepository(stagingDir: string, workspaceDir: string): Promise<string> {
  const from = path.join(stagingDir, 'repo');
  const to = path.join(workspaceDir, 'repo');
  try {
    await rename(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV') throw error;
    await cp(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  }
  await rm(stagingDir, { recursive: true, force: true });
  return to;
}

/** On a failed attempt: whatever git wrote goes to the workspace (kept for debugging) if it can; the staging folder goes anyway. */
async function keepWhatGitWrote(stagingDir: string, workspaceDir: string): Promise<void> {
  await moveStagedRepository(stagingDir, workspaceDir).catch(() => rm(stagingDir, { recursive: true, force: true }).catch(() => undefined));
}
