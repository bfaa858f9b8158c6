import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox } from '@agentbench/sandbox';
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
 * Clones the task's repository into the workspace and pins its commit, while the attempt's
 * sandbox starts (neither needs the other until setup runs). A clone failure is reported before
 * a sandbox failure: it says more.
 */
export async function cloneWhileSandboxStarts(context: AttemptContext): Promise<ClonedWorkspace> {
  const { paths } = context;
  // The sandbox mounts the workspace: it must exist before the sandbox starts.
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
      workspaceDir: paths.workspaceDir,
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
    // Wait for the sandbox, so that the attempt's end removes it.
    await creating.catch(() => undefined);
    throw error;
  }
  context.stages.push({ stage: 'git_checkout', durationMs: performance.now() - stageStarted });
  context.gitMs += performance.now() - gitStarted;
  context.commitSha = prepared.commitSha;
  context.repositorySource = prepared.source;

  context.enterStage('setup');
  const sandbox = await creating;
  context.throwIfAborted();
  const repoPath = path.relative(paths.workspaceDir, prepared.repoDir).split(path.sep).join('/') || '.';
  return { prepared, sandbox, repoPath };
}
