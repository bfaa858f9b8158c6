import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { HARNESS_VERSION, loadSuite, type AttemptRecord, type EngineConfig, type LoadedTask, type RunCounts, type RunRecord } from '@agentbench/schemas';
import { DEFAULT_DOCKER_IMAGE, NetworkHolderPool, removeManagedContainers } from '@agentbench/sandbox';
import { ulid } from 'ulid';
import { suiteAttemptPaths, suiteWorkspacesDir } from '../artifacts/attempt-paths.js';
import { DEFAULT_SKIP_LABELS } from '../plan/default-skip-labels.js';
import { ArtifactBudget } from '../artifacts/artifact-budget.js';
import { BackgroundRemovals } from '../artifacts/background-removals.js';
import { executeAttempt, type AttemptOutcome, type FlakyRerunPolicy } from '../attempt/execute-attempt.js';
import { taskSandboxSpec } from '../attempt/task-sandbox-spec.js';
import type { SandboxFactory } from '../plan/sandbox-factory.js';
import { removeRunLeftovers } from '../run/remove-run-leftovers.js';
import { startRunSandboxPool, type PoolIdleCapacity } from '../run/run-sandbox-pool.js';
import { driveRun, type StartedRun } from '../run/drive-run.js';
import { readRunJson, RUN_JSON_FILE } from '../run/run-json.js';
import { ConfigurationError } from '@agentbench/schemas';
import { RunDirectoryError } from '../errors/run-directory-error.js';
import { loadMirrorMap, type MirrorRule } from '../git/mirror-map.js';
import { RepoCache } from '../git/repo-cache.js';
import { timestampForPath } from '@agentbench/helpers';
import { prepareRunEngines } from '../run/engines/prepare-engines.js';
import type { TryInput } from '../run/drive-attempt-tries.js';
import { snapshotGitDirectory } from '../artifacts/attempt-paths.js';
import { orderAttempts, type AttemptOrder } from '../run/longest-first-order.js';
import { readPastAttemptDurations } from '../run/past-attempt-durations.js';
import { selectTasksToResume } from './resume-selection.js';
import type { SuiteEvent, SuiteTaskResult, SuiteTaskStatus, ValidateSuiteResult } from './suite-types.js';
import { checkTaskValidity, type ReferenceAgentFactory } from './check-task-validity.js';
import { writeSuiteValidity } from '../artifacts/suite-validity-file.js';

/** Which workspaces a suite run keeps once a task's record is written. */
export type WorkspaceRetention = 'all' | 'failed' | 'none';

export interface ValidateSuiteOptions {
  suite: string;
  /** Folder holding the suites. Default `tasks`. */
  tasksDir?: string;
  /** Artifacts folder; the run goes to `<outDir>/runs/<timestamp>__<suite>__baseline/`. Default `artifacts`. */
  outDir?: string;
  /** Also run tasks labelled `flaky`. Default false. */
  includeFlaky?: boolean;
  /** Labels that skip a task. Default `['flaky']` (none with `includeFlaky`). */
  skipLabels?: readonly string[];
  /** Tasks run at once. Default: the number of CPUs, at least 2 (attempts mostly wait on containers). */
  concurrency?: number;
  /** Continue this run directory: only tasks without a final record run, and append to its attempts.jsonl. */
  resumeDir?: string;
  /** Aborting stops scheduling, kills running attempts (recorded INTERRUPTED) and leaves a resumable run. */
  signal?: AbortSignal;
  onEvent?: (event: SuiteEvent) => void;
  /** Default `failed`: a valid task's workspace is removed, the others kept for debugging. */
  keepWorkspaces?: WorkspaceRetention;
  mirrors?: readonly MirrorRule[];
  cache?: RepoCache;
  createSandbox?: SandboxFactory;
  flakyRerun?: FlakyRerunPolicy;
  rerunBudgetFraction?: number;
  env?: Record<string, string>;
  /** Bytes of stdout and of stderr each command's log keeps. Default: each task's `environment.max_output_bytes`, else 10 MiB. */
  maxOutputBytes?: number;
  /** The run's budget for the workspaces kept by `keepWorkspaces`. Default 1 GiB. */
  artifactBudget?: ArtifactBudget;
  /** OCI runtime of every sandbox (`--runtime`, e.g. `runsc`); wins over each task's `environment.runtime`. */
  runtime?: string;
  /**
   * Docker engines to place the attempts on (each on the one with the most free capacity; the engine is
   * in each record). Checked before the first attempt: every engine must answer; missing runner images
   * are sent from the local engine. An attempt lost to an engine that stops answering runs again on
   * another one. Not with `createSandbox`. Default: the local engine only.
   */
  engines?: readonly EngineConfig[];
  /** Told when an attempt is run again because its engine stopped answering. */
  onEngineLost?: (taskId: string, reason: string) => void;
  /** Task validity (`--oracle-runs N`): per task, N baseline runs and N runs of the reference patch; see `checkTaskValidity`. */
  oracleRuns?: number;
  /** Builds the agent that applies a task's reference patch (null: the task has none). Required with `oracleRuns`. */
  referenceAgentFor?: ReferenceAgentFactory;
  /** Warm sandboxes the run's pool keeps at most (0: every sandbox is created cold). Default: the concurrency. No pool with `createSandbox`, `runtime` or `engines`. */
  sandboxPoolSize?: number;
  /** Debug notes of the run's sandbox pool (a sandbox created cold, and why). */
  onDebug?: (message: string) => void;
  /** When the run's pool warms in the background. Default: while the host has idle CPU (see startRunSandboxPool). */
  sandboxPoolIdleCapacity?: PoolIdleCapacity;
  /**
   * The order the tasks start in: `longest-first` (default: by their median duration in the earlier
   * baseline runs under `<outDir>/runs`, else their timeout) or `as-listed` (the suite's order).
   * run.json says which, and the start order (`options.order`, `options.start_order`).
   */
  order?: AttemptOrder;
}

/** Default `-j`: every CPU, and at least 2, since an attempt spends most of its time waiting on its container. */
export function defaultConcurrency(): number {
  return Math.max(2, availableParallelism());
}

function statusOf(record: AttemptRecord): SuiteTaskStatus {
  const reason = record.result.failure_reason;
  if (reason === null) return 'valid';
  if (reason === 'INTERRUPTED') return 'interrupted';
  if (reason === 'INTERNAL_ERROR' || reason === 'SANDBOX_ERROR' || reason === 'UNKNOWN') return 'errored';
  // The machine's failure (a clone without a network) says nothing of the task's validity.
  if (record.failure_class === 'infra') return 'errored';
  return 'invalid';
}

function countResults(results: readonly SuiteTaskResult[]): RunCounts {
  const count = (status: SuiteTaskStatus): number => results.filter((result) => result.status === status).length;
  return {
    total: results.length,
    passed: count('valid'),
    failed: count('invalid'),
    errored: count('errored'),
    skipped: count('skipped'),
  };
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

/** The run.json of a suite run to resume, checked against the suite it is resumed with. */
async function readResumedRun(runDir: string, suite: string, byId: ReadonlyMap<string, LoadedTask>): Promise<RunRecord> {
  const runFile = path.join(runDir, RUN_JSON_FILE);
  const runRecord = await readRunJson(runDir, () => new RunDirectoryError(runFile, 'not found: --resume expects a run directory made by `ab validate-suite`'));
  if (runRecord.kind !== 'suite_baseline') throw new RunDirectoryError(runFile, `is a "${runRecord.kind}" run; --resume continues suite baseline runs only`);
  if (runRecord.suite !== suite) throw new RunDirectoryError(runFile, `is a run of suite "${runRecord.suite ?? '?'}", not "${suite}"`);
  const missing = runRecord.task_ids.filter((taskId) => !byId.has(taskId));
  if (missing.length > 0) throw new RunDirectoryError(runFile, `names tasks the suite no longer has: ${missing.join(', ')}`);
  return { ...runRecord, status: 'running', finished_at: null };
}

/** run.json of a new suite run: the tasks it runs, and those its skip labels leave out. */
function newRunRecord(options: ValidateSuiteOptions, tasksDir: string, outDir: string, concurrency: number, tasks: readonly LoadedTask[], skipLabels: readonly string[], createdAt: Date): RunRecord {
  const skippedTasks = tasks
    .map((loaded) => ({ task_id: loaded.task.id, labels: loaded.task.labels.filter((label) => skipLabels.includes(label)) }))
    .filter((entry) => entry.labels.length > 0);
  return {
    run_id: ulid(),
    kind: 'suite_baseline',
    created_at: createdAt.toISOString(),
    finished_at: null,
    harness_version: HARNESS_VERSION,
    suite: options.suite,
    task_ids: tasks.map((loaded) => loaded.task.id).filter((taskId) => !skippedTasks.some((entry) => entry.task_id === taskId)),
    options: {
      tasks_dir: tasksDir,
      out_dir: outDir,
      include_flaky: options.includeFlaky === true,
      skip_labels: [...skipLabels],
      skipped_tasks: skippedTasks,
      concurrency,
      keep_workspaces: options.keepWorkspaces ?? 'failed',
      ...(options.maxOutputBytes === undefined ? {} : { max_output_bytes: options.maxOutputBytes }),
      ...(options.oracleRuns === undefined ? {} : { oracle_runs: options.oracleRuns }),
    },
    status: 'running',
    counts: null,
  };
}

/**
 * `ab validate-suite`: baseline validation of every task of a suite, several at once, into
 * `<outDir>/runs/<timestamp>__<suite>__baseline/` (`run.json`, `attempts.jsonl` with one
 * AttemptRecord per task appended and synced as each finishes, `logs/<task_id>/`,
 * `workspace/<task_id>/`). Tasks labelled `flaky` are skipped unless `includeFlaky`. Aborting
 * `signal` records the running tasks as INTERRUPTED and leaves a run that `resumeDir` continues.
 */
export async function validateSuite(options: ValidateSuiteOptions): Promise<ValidateSuiteResult> {
  const started = performance.now();
  const concurrency = options.concurrency ?? defaultConcurrency();
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ConfigurationError('concurrency (-j)', `expected a whole number of at least 1, found ${String(options.concurrency)}`);
  }
  if (options.oracleRuns !== undefined) {
    if (!Number.isInteger(options.oracleRuns) || options.oracleRuns < 1) {
      throw new ConfigurationError('oracleRuns (--oracle-runs)', `expected a whole number of at least 1, found ${String(options.oracleRuns)}`);
    }
    if (options.referenceAgentFor === undefined) throw new ConfigurationError('referenceAgentFor', 'needed with oracleRuns: the agent that applies a task\'s reference patch');
  }
  const tasksDir = path.resolve(options.tasksDir ?? 'tasks');
  const loadedSuite = await loadSuite(tasksDir, options.suite);
  const byId = new Map(loadedSuite.tasks.map((loaded) => [loaded.task.id, loaded]));
  const engineSet = await prepareRunEngines(options.engines, { createSandbox: options.createSandbox, images: loadedSuite.tasks.map((loaded) => loaded.task.environment.docker_image ?? DEFAULT_DOCKER_IMAGE) });
  const isResumed = options.resumeDir !== undefined;
  const outDir = path.resolve(options.outDir ?? 'artifacts');
  const createdAt = new Date();
  const runRecord = isResumed
    ? await readResumedRun(path.resolve(options.resumeDir as string), options.suite, byId)
    : newRunRecord(options, tasksDir, outDir, concurrency, loadedSuite.tasks, [...(options.skipLabels ?? (options.includeFlaky === true ? [] : DEFAULT_SKIP_LABELS))], createdAt);
  const skipLabels = stringArray(runRecord.options['skip_labels']) ?? [...DEFAULT_SKIP_LABELS];
  let finished = new Map<string, AttemptRecord>();
  // Sandboxes come from a warm pool (mounted workspaces through mount slots in the run folder: the
  // clone stage asks for the sandbox before git writes), cold creates joining a network holder started
  // while the current tasks run. No pools under another runtime (a holder is made by runc; the pool's
  // sandboxes would be too), with several engines (a pool and a holder belong to one engine) or with a
  // caller's createSandbox (the caller makes the sandboxes): the cold path then, as before.
  const networkHolders =
    options.createSandbox === undefined && options.runtime === undefined && engineSet === undefined ? new NetworkHolderPool({ labels: { runId: runRecord.run_id, taskId: 'network-holder' } }) : undefined;
  const results = new Map<string, SuiteTaskResult>();
  let mirrors: readonly MirrorRule[] = [];
  const cache = options.cache ?? new RepoCache();
  const retention = options.keepWorkspaces ?? 'failed';
  const budget = options.artifactBudget ?? new ArtifactBudget();
  // Keeping none: each workspace is removed in the background once its sandbox is gone (the next
  // task does not wait for it); the run awaits every removal before it ends (cleanup below).
  // Also on a resume, whatever it keeps: a killed run's workspaces left mid-removal go.
  const workspaceRemovals = retention === 'none' || isResumed ? new BackgroundRemovals() : undefined;
  let workspaceRemovalFailures: string[] = [];

  // One try of a task's baseline, on the sandboxes the driver gives it (its engine's, with an engines list).
  const runTry = async (taskId: string, input: TryInput, run: StartedRun): Promise<AttemptOutcome> => {
    const paths = suiteAttemptPaths(run.runDir, taskId);
    return executeAttempt(byId.get(taskId) as LoadedTask, 'baseline', {
      paths,
      runId: runRecord.run_id,
      mirrors,
      cache,
      signal: input.signal,
      onStage: (stage) => options.onEvent?.({ type: 'task-stage', taskId, stage }),
      createSandbox: input.createSandbox,
      ...(options.flakyRerun === undefined ? {} : { flakyRerun: options.flakyRerun }),
      ...(options.rerunBudgetFraction === undefined ? {} : { rerunBudgetFraction: options.rerunBudgetFraction }),
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
      // Each attempt cleans its workspace; the run's budget is charged below, for those the retention keeps.
      // Keeping none, the attempt removes it uncleaned (no sanitizing or measuring walk).
      artifactBudget: new ArtifactBudget({ budgetBytes: Number.POSITIVE_INFINITY }),
      discardWorkspace: retention === 'none',
      ...(retention === 'none' && workspaceRemovals !== undefined ? { workspaceRemovals } : {}),
    });
  };

  // The task's record, its validity (--oracle-runs) and what is kept of its workspace.
  const finishTask = async (taskId: string, outcome: AttemptOutcome, run: StartedRun, signal: AbortSignal): Promise<void> => {
    const { runDir } = run;
    const paths = suiteAttemptPaths(runDir, taskId);
    await run.append(outcome.record, paths.workspaceDir);
    const result: SuiteTaskResult = { taskId, status: statusOf(outcome.record), record: outcome.record, outcome };
    if (options.oracleRuns !== undefined && options.referenceAgentFor !== undefined) {
      result.validity = await checkTaskValidity(byId.get(taskId) as LoadedTask, {
        runs: options.oracleRuns,
        runDir,
        runId: runRecord.run_id,
        referenceAgentFor: options.referenceAgentFor,
        mirrors,
        cache,
        signal,
        createSandbox: run.createSandbox,
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
      });
    }
    results.set(taskId, result);
    const isKept = retention === 'all' || (retention === 'failed' && result.status !== 'valid' && result.status !== 'interrupted');
    if (!isKept) await rm(paths.workspaceDir, { recursive: true, force: true }).catch(() => undefined);
    else if (existsSync(paths.workspaceDir)) await budget.keepWorkspace(paths.workspaceDir, { label: taskId }).catch(() => undefined);
    options.onEvent?.({ type: 'task-finished', taskId, result });
  };

  // Longest first, so no long task is left to run alone at the end while the other slots sit idle.
  const order = options.order ?? 'longest-first';
  const past = order === 'as-listed' ? new Map<string, number>() : await readPastAttemptDurations(path.join(outDir, 'runs'), 'suite_baseline', runRecord.task_ids);
  const startOrder = orderAttempts(runRecord.task_ids, order, { taskIdOf: (taskId) => taskId, past, fallbackSeconds: (taskId) => byId.get(taskId)?.task.environment.timeout_sec ?? 0 });
  runRecord.options = { ...runRecord.options, order, start_order: startOrder };

  let ordered: SuiteTaskResult[] = [];
  let isInterrupted = false;
  const driven = await driveRun<string, AttemptOutcome>({
    folder: isResumed ? { kind: 'resume', runDir: path.resolve(options.resumeDir as string) } : { kind: 'unique', parent: path.join(outDir, 'runs'), name: `${timestampForPath(createdAt)}__${options.suite}__baseline` },
    runRecord,
    items: startOrder,
    resume: async (records) => {
      if (!isResumed) return;
      finished = selectTasksToResume(runRecord.task_ids, records.filter((record) => record.run_id === runRecord.run_id)).finished;
      // Containers of a run whose process died (SIGKILL, a crash) are still there: ours to remove.
      if (options.createSandbox === undefined) await removeManagedContainers({ runId: runRecord.run_id, onlyOrphans: true }).catch(() => undefined);
      await workspaceRemovals?.resumeLeftovers(suiteWorkspacesDir(path.resolve(options.resumeDir as string)));
    },
    shouldRun: (taskId) => !finished.has(taskId),
    schedule: {
      concurrency,
      onEvent: (event) => {
        if (event.type === 'item-started') options.onEvent?.({ type: 'task-started', taskId: event.item });
        // A failure of ours (a full disk) stops the run too, but it is reported as itself, not as an interruption.
        if (event.type === 'scheduler-stopping' && event.cause === 'signal') options.onEvent?.({ type: 'suite-interrupting' });
      },
    },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    sandboxes: {
      ...(engineSet === undefined ? {} : { engines: engineSet }),
      ...(options.createSandbox === undefined ? {} : { createSandbox: options.createSandbox }),
      ...(options.runtime === undefined ? {} : { runtime: options.runtime }),
    },
    startPool: async ({ runDir, runId }) => {
      if (networkHolders === undefined) return undefined;
      // One take per task still to run, in start order (a resume's finished ones left out); the oracle
      // runs' attempts take more, so with them the pool is bounded by its size alone.
      const toRun = startOrder.filter((taskId) => !finished.has(taskId));
      const size = options.sandboxPoolSize ?? concurrency;
      return startRunSandboxPool({
        runDir,
        runId,
        size,
        // A baseline releases its sandbox at its very end, right before the next task takes one: a refill
        // started then is never ready in time (at -j 1 every take waited for a create: custom-dev 17.8 s → 21.1 s).
        refillAfter: 'take',
        ...(options.oracleRuns === undefined ? { expectedTakes: toRun.length } : {}),
        // Warmed at once, while the run writes its plan and the first tasks clone (as ab run does).
        firstTakes: toRun.slice(0, Math.min(size, concurrency)).map((taskId) => taskSandboxSpec((byId.get(taskId) as LoadedTask).task)),
        networkHolders,
        ...(options.onDebug === undefined ? {} : { onDebug: options.onDebug }),
        ...(options.sandboxPoolIdleCapacity === undefined ? {} : { idleCapacity: options.sandboxPoolIdleCapacity }),
      });
    },
    onStarted: async ({ runDir }) => {
      const skipped: Array<{ taskId: string; labels: string[] }> = [];
      for (const loaded of loadedSuite.tasks) {
        const labels = loaded.task.labels.filter((label) => skipLabels.includes(label));
        if (labels.length > 0 && !runRecord.task_ids.includes(loaded.task.id)) {
          skipped.push({ taskId: loaded.task.id, labels });
          results.set(loaded.task.id, { taskId: loaded.task.id, status: 'skipped', skippedBy: labels });
        }
      }
      for (const [taskId, record] of finished) results.set(taskId, { taskId, status: statusOf(record), record });
      options.onEvent?.({
        type: 'suite-started',
        runDir,
        runId: runRecord.run_id,
        suite: options.suite,
        total: runRecord.task_ids.length,
        toRun: startOrder.filter((taskId) => !finished.has(taskId)),
        order,
        timedByPastRuns: past.size,
        alreadyFinished: finished.size,
        skipped,
        concurrency,
        isResumed,
        warnings: loadedSuite.warnings,
      });
      mirrors = options.mirrors ?? (await loadMirrorMap());
    },
    tries: {
      run: runTry,
      // An attempt lost to its engine runs again on another; its files go first, so the next try starts from nothing, like a first one.
      beforeRerun: async (taskId, { reason }, run) => {
        options.onEngineLost?.(taskId, reason);
        const paths = suiteAttemptPaths(run.runDir, taskId);
        for (const dir of [paths.workspaceDir, paths.logDir, snapshotGitDirectory(paths.workspaceDir)]) await rm(dir, { recursive: true, force: true });
      },
      finished: (taskId, outcome, _end, run, signal) => finishTask(taskId, outcome, run, signal),
    },
    // An attempt records its own failures; a throw is a failure of ours (the disk, a bug): it stops
    // the others (their attempts are aborted, recorded INTERRUPTED) and is reported once they end.
    end: (outcomes) => {
      ordered = loadedSuite.tasks
        .filter((loaded) => results.has(loaded.task.id) || runRecord.task_ids.includes(loaded.task.id))
        .map((loaded) => results.get(loaded.task.id) ?? { taskId: loaded.task.id, status: 'not_run' as const });
      isInterrupted = ordered.some((result) => result.status === 'interrupted' || result.status === 'not_run');
      const failure = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.error] : []))[0];
      return { status: failure !== undefined ? 'failed' : isInterrupted ? 'interrupted' : 'completed', counts: countResults(ordered), ...(failure === undefined ? {} : { failure }) };
    },
    cleanup: async ({ runId }) => {
      if (workspaceRemovals !== undefined) workspaceRemovalFailures = await workspaceRemovals.settle();
      await networkHolders?.dispose();
      if (networkHolders !== undefined) {
        const left = await removeRunLeftovers({ runId });
        if (left.length > 0) options.onDebug?.(`validate-suite: removed ${left.length} container(s) the run's cleanup had missed: ${left.join(', ')}`);
      }
      // Every engine that answers loses what the run left (a container whose removal failed while its engine was away).
      await engineSet?.removeManagedContainers({ runId });
    },
  });
  const { runDir } = driven;
  const validity = options.oracleRuns === undefined ? undefined : await writeSuiteValidity({ runDir, runId: runRecord.run_id, runs: options.oracleRuns, taskIds: runRecord.task_ids });
  const suiteResult: ValidateSuiteResult = {
    runDir,
    runId: runRecord.run_id,
    runRecord: driven.runRecord,
    tasks: ordered,
    isInterrupted,
    isResumed,
    durationMs: performance.now() - started,
    ...(validity === undefined ? {} : { validity }),
    ...(workspaceRemovalFailures.length === 0 ? {} : { workspaceRemovalFailures }),
    ...(driven.pool === undefined ? {} : { sandboxPool: driven.pool.stats() }),
  };
  options.onEvent?.({ type: 'suite-finished', result: suiteResult });
  return suiteResult;
}
