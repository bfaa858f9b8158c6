import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { HARNESS_VERSION, type LoadedTask, type RunRecord } from '@agentbench/schemas';
import { ulid } from 'ulid';
import { relativeToRun, taskRunPaths, type AttemptPaths } from '../artifacts/attempt-paths.js';
import { executeAttempt, type AttemptOptions, type AttemptOutcome } from '../attempt/execute-attempt.js';
import { loadMirrorMap } from '../git/mirror-map.js';
import { RepoCache } from '../git/repo-cache.js';
import { timestampForPath } from '@agentbench/helpers';
import { writingArtifact } from '../errors/artifact-write-error.js';
import { createArtifactFolder } from '../artifacts/run-directory.js';
import { driveRun } from './drive-run.js';

/** An attempt's options (mirrors, cache, sandbox factory, signal, stages, env, output cap, artifact budget), and where the run goes. */
export interface RunTaskOptions extends Omit<AttemptOptions, 'paths' | 'runId' | 'flakyRerun' | 'rerunBudgetFraction'> {
  /** Artifacts folder; the run goes to `<outDir>/runs/<timestamp>__<ulid>/`. Default `artifacts`. */
  outDir?: string;
}

export interface RunTaskResult {
  runDir: string;
  runRecord: RunRecord;
  outcome: AttemptOutcome;
}

/**
 * `ab run-task`: clones and pins the repository, runs setup (with network) and the test command
 * (without) in a fresh sandbox, and keeps everything under `<outDir>/runs/<timestamp>__<ulid>/`:
 * `run.json`, `attempts.jsonl` (one record), `logs/`, `workspace/` (the repository as the tests
 * left it) and `task/task.yaml`. The outcome says whether the tests passed.
 */
export async function runTask(loaded: LoadedTask, options: RunTaskOptions = {}): Promise<RunTaskResult> {
  const outDir = path.resolve(options.outDir ?? 'artifacts');
  const runId = ulid();
  const createdAt = new Date();
  const runRecord: RunRecord = {
    run_id: runId,
    kind: 'task',
    created_at: createdAt.toISOString(),
    finished_at: null,
    harness_version: HARNESS_VERSION,
    suite: loaded.task.suite,
    task_ids: [loaded.task.id],
    options: { task_file: loaded.file, out_dir: outDir, ...(options.maxOutputBytes === undefined ? {} : { max_output_bytes: options.maxOutputBytes }) },
    status: 'running',
    counts: null,
  };
  const { outDir: _outDir, ...attemptOptions } = options;
  let outcome: AttemptOutcome | undefined;
  let paths: AttemptPaths | undefined;
  const driven = await driveRun<LoadedTask>({
    folder: { kind: 'unique', parent: path.join(outDir, 'runs'), name: `${timestampForPath(createdAt)}__${runId}` },
    runRecord,
    items: [loaded],
    shouldRun: () => true,
    schedule: { concurrency: 1 },
    ...(options.createSandbox === undefined ? {} : { sandboxes: { createSandbox: options.createSandbox } }),
    // A copy of the task as it ran, beside its record.
    onStarted: async ({ runDir }) => {
      await createArtifactFolder(path.join(runDir, 'task'));
      const taskCopy = path.join(runDir, 'task', path.basename(loaded.file));
      await writingArtifact(taskCopy, () => copyFile(loaded.file, taskCopy));
    },
    // The attempt follows the caller's signal (an abort records it INTERRUPTED), not the driver's; its
    // sandboxes are the run's (the caller's factory, else Docker), metered for run.json's efficiency.
    runItem: async (task, run) => {
      paths = taskRunPaths(run.runDir);
      outcome = await executeAttempt(task, 'task', {
        ...attemptOptions,
        createSandbox: run.createSandbox,
        paths,
        runId,
        mirrors: options.mirrors ?? (await loadMirrorMap()),
        cache: options.cache ?? new RepoCache(),
      });
      await run.append(outcome.record, paths.workspaceDir);
    },
    end: (outcomes) => {
      const failure = outcomes.flatMap((item) => (item.status === 'rejected' ? [item.error] : []))[0];
      if (failure !== undefined || outcome === undefined || paths === undefined) return { status: 'failed', counts: { total: 1, passed: 0, failed: 0, errored: 1, skipped: 0 }, failure: failure ?? new Error('the attempt did not run') };
      const isInterrupted = outcome.failureReason === 'INTERRUPTED';
      const isErrored = outcome.failureReason === 'INTERNAL_ERROR' || outcome.failureReason === 'SANDBOX_ERROR' || outcome.failureReason === 'UNKNOWN';
      return {
        status: isInterrupted ? 'interrupted' : 'completed',
        counts: { total: 1, passed: outcome.isSuccess ? 1 : 0, failed: !outcome.isSuccess && !isErrored ? 1 : 0, errored: isErrored ? 1 : 0, skipped: 0 },
        fields: { details: runDetails(loaded, outcome, paths) },
      };
    },
  });
  return { runDir: driven.runDir, runRecord: driven.runRecord, outcome: outcome as AttemptOutcome };
}

/** What ran, to reproduce it (as the original project's run.json). */
function runDetails(loaded: LoadedTask, outcome: AttemptOutcome, paths: AttemptPaths): Record<string, unknown> {
  const task = loaded.task;
  return {
    outcome: { passed: outcome.isSuccess, failure_reason: outcome.failureReason, stage: outcome.stage, message: outcome.message },
    repo: { url: task.repo.url, resolved_url: loaded.repoUrl, source: outcome.repositorySource ?? null, commit: task.repo.commit, commit_sha: outcome.commitSha ?? null },
    docker_image: task.environment.docker_image,
    workdir: task.environment.workdir,
    timeout_sec: task.environment.timeout_sec,
    network: { setup: 'bridge', run: 'none' },
    commands: { setup: outcome.setupCommands, run: task.run.command },
    stages: outcome.stages.map((stage) => ({ ...stage, durationMs: Math.round(stage.durationMs) })),
    workspace: relativeToRun(paths.runDir, paths.workspaceDir),
    logs: relativeToRun(paths.runDir, paths.logDir),
  };
}
