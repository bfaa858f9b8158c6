import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { HARNESS_VERSION, type LoadedTask, type RunRecord } from '@agentbench/schemas';
import { ulid } from 'ulid';
import { relativeToRun, taskRunPaths } from '../artifacts/attempt-paths.js';
import { executeAttempt, type AttemptOptions, type AttemptOutcome } from '../attempt/execute-attempt.js';
import { loadMirrorMap } from '../git/mirror-map.js';
import { RepoCache } from '../git/repo-cache.js';
import { appendAttemptRecordFreeingWorkspace } from '../artifacts/attempts-file.js';
import { timestampForPath } from '@agentbench/helpers';
import { ArtifactWriteError, writingArtifact } from '../errors/artifact-write-error.js';
import { createArtifactFolder, createUniqueDirectory, writeRunJson } from '../artifacts/run-directory.js';

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
  const runDir = await createUniqueDirectory(path.join(outDir, 'runs'), `${timestampForPath(createdAt)}__${runId}`);
  const runFile = path.join(runDir, 'run.json');
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
  await writeRunJson(runFile, runRecord);
  await createArtifactFolder(path.join(runDir, 'task'));
  const taskCopy = path.join(runDir, 'task', path.basename(loaded.file));
  await writingArtifact(taskCopy, () => copyFile(loaded.file, taskCopy));

  const { outDir: _outDir, ...attemptOptions } = options;
  const paths = taskRunPaths(runDir);
  const outcome = await executeAttempt(loaded, 'task', {
    ...attemptOptions,
    paths,
    runId,
    mirrors: options.mirrors ?? (await loadMirrorMap()),
    cache: options.cache ?? new RepoCache(),
  });
  await appendAttemptRecordFreeingWorkspace(path.join(runDir, 'attempts.jsonl'), outcome.record, paths.workspaceDir);

  const isInterrupted = outcome.failureReason === 'INTERRUPTED';
  const isErrored = outcome.failureReason === 'INTERNAL_ERROR' || outcome.failureReason === 'SANDBOX_ERROR' || outcome.failureReason === 'UNKNOWN';
  const task = loaded.task;
  const finished: RunRecord & Record<string, unknown> = {
    ...runRecord,
    finished_at: new Date().toISOString(),
    status: isInterrupted ? 'interrupted' : 'completed',
    counts: { total: 1, passed: outcome.isSuccess ? 1 : 0, failed: !outcome.isSuccess && !isErrored ? 1 : 0, errored: isErrored ? 1 : 0, skipped: 0 },
    // What ran, to reproduce it (as the original project's run.json).
    details: {
      outcome: { passed: outcome.isSuccess, failure_reason: outcome.failureReason, stage: outcome.stage, message: outcome.message },
      repo: { url: task.repo.url, resolved_url: loaded.repoUrl, source: outcome.repositorySource ?? null, commit: task.repo.commit, commit_sha: outcome.commitSha ?? null },
      docker_image: task.environment.docker_image,
      workdir: task.environment.workdir,
      timeout_sec: task.environment.timeout_sec,
      network: { setup: 'bridge', run: 'none' },
      commands: { setup: outcome.setupCommands, run: task.run.command },
      stages: outcome.stages.map((stage) => ({ ...stage, durationMs: Math.round(stage.durationMs) })),
      workspace: relativeToRun(runDir, paths.workspaceDir),
      logs: relativeToRun(runDir, paths.logDir),
    },
  };
  try {
    await writeRunJson(runFile, finished);
  } catch (error) {
    // The record is written; only run.json could not follow: say it still reads "running".
    if (ArtifactWriteError.isInstance(error)) throw new ArtifactWriteError(error.path, error.code, { cause: error, note: `it still says "running"; the attempt's record is in ${path.join(runDir, 'attempts.jsonl')}` });
    throw error;
  }
  return { runDir, runRecord: finished, outcome };
}
