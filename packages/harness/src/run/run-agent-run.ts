import { availableParallelism } from 'node:os';
import path from 'node:path';
import { AutoConcurrency } from '@agentbench/scheduler';
import { AgentBenchError, ConfigurationError, HARNESS_VERSION, type AttemptRecord, type RunPlan, type RunRecord } from '@agentbench/schemas';
import { pathExists, timestampForPath } from '@agentbench/helpers';
import { ulid } from 'ulid';
import { loadScanners, type Scanner } from '@agentbench/evaluators';
import { DEFAULT_DOCKER_IMAGE } from '@agentbench/sandbox';
import { runAgentAttempt } from '../attempt/run-agent-attempt.js';
import type { InstalledAgentChoice } from '../attempt/prepare-installed-agent.js';
import { prepareRunEngines } from './engines/prepare-engines.js';
import { providerOf } from '../plan/model-list.js';
import { ArtifactWriteError } from '../errors/artifact-write-error.js';
import { loadMirrorMap } from '../git/mirror-map.js';
import { RepoCache } from '../git/repo-cache.js';
import { createArtifactFolder, writeRunJson } from '../artifacts/run-directory.js';
import { attemptTryState, triesByAttempt } from './attempt-tries.js';
import { moveInterruptedTry } from './move-interrupted-try.js';
import { dockerOrphanEngine, removeOrphanedSandboxes } from './remove-orphaned-sandboxes.js';
import { agentRunSandboxPool } from './agent-run-sandbox-pool.js';
import type { RunSandboxPool } from './run-sandbox-pool.js';
import { runFolderRecord } from './run-folder-record.js';
import { driveRun, type StartedRun } from './drive-run.js';
import type { TriedOutcome, TryInput } from './drive-attempt-tries.js';
import { RUN_JSON_FILE } from './run-json.js';
import { assertSamePlan } from './run-plan-check.js';
import { assertPlanCanStart, notStartedRecord } from './not-started-record.js';
import { readKnownValidity, taskValidityNote, validityWarnings } from './task-validity.js';
import { RunProgressCounter } from './run-progress.js';
import { loadRunTasks, planOf, plannedAttempts, readRunRecord, wholeNumber } from './agent-run-plan.js';
import { orderAttempts } from './longest-first-order.js';
import { readPastAttemptDurations } from './past-attempt-durations.js';
import { autoConcurrencyRecord } from './auto-concurrency-record.js';
import type { AgentRunEntry, AgentRunEvent, AgentRunOptions, AgentRunResult, AttemptTryFunction, PlannedAttempt } from './agent-run-types.js';

export type { AgentRunEntry, AgentRunEvent, AgentRunOptions, AgentRunResult, AttemptTryFunction, AttemptTryInput, PlannedAttempt } from './agent-run-types.js';

function outcomeOf(record: AttemptRecord): 'passed' | 'failed' | 'errored' {
  if (record.errored === true) return 'errored';
  return record.result.passed ? 'passed' : 'failed';
}

/**
 * `ab run` (and `ab bench-models`, the same with several models): every (task, model, repeat)
 * agent attempt of the plan, in one run folder:
 *
 *   run.json        the plan (tasks, models, runs, settings, harness version) and the run's status
 *   attempts.jsonl  one record per finished try, flushed before the next starts
 *   run.lock        the pid of the process running it
 *   <model>/agent_runs/<task>/r<repeat>-try<n>/   each try's artifacts
 *
 * An attempt whose try fails on infrastructure (failure class `infra`) is tried again after a
 * backoff, up to `retries` more times; the last try counts, and an attempt whose every try failed
 * on infrastructure is `errored` (left out of pass rates). `resume` continues a run after any
 * stop, `kill -9` included: attempts with a final try are kept, the others run their next try;
 * a resume asking for another plan is refused, naming the field that differs.
 */
export async function runAgentRun(options: AgentRunOptions): Promise<AgentRunResult> {
  const isResumed = options.resume !== undefined;
  const runDir = path.resolve(options.resume ?? options.outDir ?? path.join('artifacts', 'runs', timestampForPath()));
  const recordedRun = isResumed ? await readRunRecord(runDir) : undefined;
  if (!isResumed && (await pathExists(path.join(runDir, RUN_JSON_FILE)))) {
    throw new ConfigurationError('--out', `${runDir} holds a run already (run.json); continue it with --resume ${runDir}, or choose another --out`);
  }
  const tasks = await loadRunTasks(options, recordedRun?.plan);
  if (tasks.length === 0) throw new ConfigurationError('tasks', 'no tasks to run');
  for (const issue of tasks.flatMap((loaded) => loaded.warnings)) options.onProgress?.({ type: 'task-warning', issue });
  const plan = await planOf(options, tasks, recordedRun?.plan);
  if (recordedRun !== undefined) assertSamePlan(runDir, recordedRun.plan, plan);
  // Attempts that could never start are refused before anything is written (a caller's own attempt function knows its agent).
  if (options.runAttempt === undefined && typeof plan.agent !== 'string') await assertPlanCanStart(plan.variant, tasks);
  const knownValidity = await readKnownValidity(path.resolve(options.validityRunsDir ?? path.join('artifacts', 'runs')), tasks);
  // Loaded before the run folder exists: a scanner plugin that cannot load stops the run with nothing written.
  const scanners = await loadScanners(plan.scanners ?? []);
  const engineSet = await prepareRunEngines(options.engines, {
    createSandbox: options.createSandbox,
    images: tasks.map((loaded) => loaded.task.environment.docker_image ?? DEFAULT_DOCKER_IMAGE),
    onImageSent: (engine, image, bytes, durationMs) => options.onProgress?.({ type: 'image-sent', engine, image, bytes, durationMs }),
  });
  // The engines' capacities bound the attempts in flight: -j (or -j auto's ceiling) above their sum would only queue on the engines.
  const capacity = engineSet?.totalCapacity ?? Number.POSITIVE_INFINITY;

  const isAuto = options.concurrency === 'auto';
  const maxJobs = Math.min(capacity, wholeNumber(options.maxJobs, Math.max(2, 2 * availableParallelism()), '--max-jobs', 1));
  const concurrency = isAuto ? maxJobs : Math.min(capacity, wholeNumber(options.concurrency as number | undefined, 2, '-j', 1));
  const perKey = wholeNumber(options.perKeyConcurrency, concurrency, '--per-provider', 1);
  // The warm pool's size follows -j auto's limit (one per attempt in flight), unless the caller fixed it.
  let runPool: RunSandboxPool | undefined;
  // How -j auto's limit moved (seconds since the run started, limit), for run.json: where it found the knee.
  const runStarted = performance.now();
  const limits: Array<[number, number]> = [];
  const followLimit = (limit: number): void => {
    limits.push([Math.round((performance.now() - runStarted) / 100) / 10, limit]);
    options.autoConcurrency?.onLimitChange?.(limit);
    if (options.sandboxPoolSize === undefined) runPool?.setSize(limit);
  };
  const auto = isAuto ? new AutoConcurrency({ ...options.autoConcurrency, maxJobs, onLimitChange: followLimit }) : undefined;

  // Said once the run is sure to start (its engines answer).
  for (const message of validityWarnings(tasks, knownValidity, plan)) options.onProgress?.({ type: 'validity-warning', message });
  const runTry = options.runAttempt ?? (await defaultAttemptTry(options, plan, scanners));
  // Each repeat's tasks longest first (median duration in the earlier `ab run`s beside this one, else
  // the task's timeout), so no long attempt is left to run alone at the end while the other slots sit idle.
  const order = options.order ?? 'longest-first';
  const past = order === 'as-listed' ? new Map<string, number>() : await readPastAttemptDurations(path.dirname(runDir), 'agent', tasks.map((loaded) => loaded.task.id));
  const startOrder = orderAttempts(tasks, order, { taskIdOf: (loaded) => loaded.task.id, past, fallbackSeconds: (loaded) => loaded.task.environment.timeout_sec });
  const attempts = plannedAttempts(plan, startOrder, runDir);
  const planned = new Set(attempts.map((attempt) => attempt.attemptId));
  let tries = new Map<string, AttemptRecord[]>();
  const counter = new RunProgressCounter(attempts.length);
  const entries = new Map<string, AgentRunEntry>();
  const emit = (event: AgentRunEvent): void => options.onProgress?.(event);
  const runRecord: RunRecord = {
    run_id: recordedRun?.run_id ?? ulid(),
    kind: 'agent',
    created_at: recordedRun?.created_at ?? new Date().toISOString(),
    finished_at: null,
    harness_version: HARNESS_VERSION,
    suite: tasks[0]?.task.suite ?? null,
    task_ids: tasks.map((loaded) => loaded.task.id),
    options: { concurrency: isAuto ? 'auto' : concurrency, max_jobs: maxJobs, resumed: isResumed, order, start_order: startOrder.map((loaded) => loaded.task.id) },
    status: 'running',
    counts: null,
    plan,
  };
  const tryDirOf = (attempt: PlannedAttempt, tryNumber: number): string => path.join(attempt.folder, 'agent_runs', attempt.task.task.id, `r${attempt.repeat}-try${tryNumber}`);

  // One try of an attempt, in its own folder; the driver places it, judges it and retries it.
  const runOneTry = async (attempt: PlannedAttempt, input: TryInput): Promise<TriedOutcome> => {
    const tryDir = tryDirOf(attempt, input.try);
    // A try cut off by a kill left its folder behind: it starts again from nothing (the old one kept aside).
    await moveInterruptedTry(runDir, tryDir);
    await createArtifactFolder(path.dirname(tryDir));
    emit({ type: 'try-started', attempt, try: input.try, ...(input.engine === undefined ? {} : { engine: input.engine }), progress: counter.snapshot() });
    const engine = input.engine === undefined ? {} : { engine: input.engine };
    // The record's fields in the order they always had (the driver's own, try and engine, set again by completeRecord in place).
    const complete = (record: AttemptRecord): AttemptRecord =>
      input.completeRecord({ ...record, attempt_id: attempt.attemptId, repeat: attempt.repeat, try: input.try, ...engine, task_validity: taskValidityNote(record, knownValidity.get(attempt.task.task.id), plan) });
    const record = await runTry({ attempt, try: input.try, tryDir, createSandbox: input.createSandbox, completeRecord: complete, signal: input.signal, ...engine });
    return { record: complete(record), tryDir };
  };

  // A try that threw: our bug (nothing recorded, a resume runs the attempt again), or an attempt that could not start (recorded as errored, final).
  const tryFailed = async (attempt: PlannedAttempt, error: unknown, tryNumber: number, run: StartedRun): Promise<void> => {
    // The run folder cannot take the try's files: no later try could either, so the run stops.
    if (ArtifactWriteError.isInstance(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    entries.get(attempt.label)?.errors.push(`${attempt.task.task.id} #${attempt.repeat}: ${message}`);
    if (!AgentBenchError.isInstance(error)) {
      emit({ type: 'attempt-error', attempt, try: tryNumber, error: message, progress: counter.snapshot() });
      return;
    }
    // The attempt could not start (its agent failed to load, a setting it needs is missing): recorded as errored, with why, and final.
    const tryDir = tryDirOf(attempt, tryNumber);
    let record = notStartedRecord(attempt, tryNumber, { runId: runRecord.run_id, variant: plan.variant, error, at: new Date() });
    record = { ...record, task_validity: taskValidityNote(record, knownValidity.get(attempt.task.task.id), plan), artifact_paths: { attempt: 'attempt.json' } };
    // In its try folder like any try's record, so a reader of the model's folder (the ab run table) counts it too.
    await createArtifactFolder(tryDir);
    await writeRunJson(path.join(tryDir, 'attempt.json'), record);
    await run.append(runFolderRecord(record, runDir, tryDir));
    counter.finish('errored');
    emit({ type: 'attempt-error', attempt, try: tryNumber, error: message, isErrored: true, progress: counter.snapshot() });
  };

  const driven = await driveRun<PlannedAttempt>({
    folder: isResumed ? { kind: 'resume', runDir } : { kind: 'new', runDir },
    runRecord,
    items: attempts,
    resume: async (records, lock) => {
      // A run killed with kill -9 left its sandboxes running: they go before its attempts run again.
      if (lock.takenOverFrom !== undefined && options.runAttempt === undefined) {
        await removeOrphanedSandboxes(lock.takenOverFrom, runDir, (engineSet?.engines.map((engine) => engine.docker) ?? [undefined]).map(dockerOrphanEngine));
      }
      tries = triesByAttempt(records.filter((record) => record.attempt_id !== undefined && planned.has(record.attempt_id)));
      for (const attempt of attempts) {
        if (!entries.has(attempt.label)) entries.set(attempt.label, { model: attempt.label, folder: attempt.folder, isDropped: false, errors: [] });
        const recorded = tries.get(attempt.attemptId) ?? [];
        const state = attemptTryState(recorded, plan.retries);
        if (state.isComplete && state.last !== undefined) counter.countDone(outcomeOf(state.last));
        counter.progress.retried += Math.max(0, recorded.length - 1);
      }
    },
    shouldRun: (attempt) => !attemptTryState(tries.get(attempt.attemptId) ?? [], plan.retries).isComplete,
    schedule: {
      concurrency,
      keyOf: options.keyOf ?? ((attempt) => providerOf(attempt.model ?? '')),
      limitPerKey: perKey,
      ...(options.limitsByKey === undefined ? {} : { limitsByKey: options.limitsByKey }),
      onEvent: (event) => {
        counter.progress.running = event.counts.running;
        counter.progress.queued = event.counts.queued;
        const held = auto?.holdReason();
        if (held === undefined) delete counter.progress.held;
        else counter.progress.held = held;
        if (event.type === 'item-started' || event.type === 'item-finished' || event.type === 'item-failed') emit({ type: 'progress', progress: counter.snapshot() });
      },
    },
    ...(auto === undefined ? {} : { auto }),
    sandboxes: {
      ...(engineSet === undefined ? {} : { engines: engineSet }),
      ...(options.createSandbox === undefined ? {} : { createSandbox: options.createSandbox }),
      ...(plan.runtime === null || plan.runtime === undefined ? {} : { runtime: plan.runtime }),
      ...(options.dyingEngineGraceMs === undefined ? {} : { dyingEngineGraceMs: options.dyingEngineGraceMs }),
    },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onStarted: () => emit({ type: 'run-started', runDir, isResumed, progress: counter.snapshot() }),
    // A runtime override (the plan's, inherited on resume) means no pool: a warm sandbox's runtime is fixed when it starts.
    startPool: async (run) => {
      if (plan.runtime !== null && plan.runtime !== undefined) return undefined;
      const attemptsToRun = attempts.filter((attempt) => !attemptTryState(tries.get(attempt.attemptId) ?? [], plan.retries).isComplete);
      // The plan's agent, which a resume inherits without the option.
      runPool = await agentRunSandboxPool({ ...options, ...(typeof plan.agent === 'string' ? { agent: plan.agent } : {}) }, { ...run, concurrency: auto?.limit ?? concurrency, attemptsToRun });
      return runPool;
    },
    tries: {
      run: runOneTry,
      retries: { retries: plan.retries, backoffMs: options.retryBackoffMs ?? 2000, recordedTries: (attempt) => tries.get(attempt.attemptId) ?? [] },
      finished: async (attempt, outcome, end, run) => {
        const { record } = outcome;
        await run.append(runFolderRecord(record, runDir, outcome.tryDir as string));
        if (end.willRetry) counter.progress.retried += 1;
        if (end.isFinal) counter.finish(outcomeOf(record));
        emit({ type: 'try-finished', attempt, try: end.try, record, willRetry: end.willRetry, progress: counter.snapshot() });
      },
      failed: tryFailed,
    },
    end: (outcomes) => {
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') entries.get(outcome.item.label)?.errors.push(`${outcome.item.task.task.id} #${outcome.item.repeat}: ${String(outcome.error)}`);
      }
      // Only a write failure fails the run; another failure of ours is in its model's errors, and a resume runs its attempt.
      const writeFailure = outcomes.flatMap((outcome) => (outcome.status === 'rejected' && ArtifactWriteError.isInstance(outcome.error) ? [outcome.error] : []))[0];
      const progress = counter.snapshot();
      return {
        ...(auto === undefined ? {} : { fields: { auto: autoConcurrencyRecord(auto, limits) } }),
        status: writeFailure !== undefined ? 'failed' : progress.done === progress.total ? 'completed' : 'interrupted',
        counts: { total: progress.total, passed: progress.passed, failed: progress.failed, errored: progress.errored, skipped: progress.total - progress.done },
        ...(writeFailure === undefined ? {} : { failure: writeFailure }),
      };
    },
  });
  const progress = counter.snapshot();
  const pool = driven.pool;
  return { outDir: runDir, plan, runs: plan.runs, taskCount: tasks.length, entries: [...entries.values()], progress, isComplete: progress.done === progress.total, ...(pool === undefined ? {} : { sandboxPool: pool.stats() }) };
}

/** The default try: the agent attempt pipeline, sharing one mirror map and repository cache across the run. */
async function defaultAttemptTry(options: AgentRunOptions, plan: RunPlan, scanners: readonly Scanner[]): Promise<AttemptTryFunction> {
  const mirrors = options.mirrors ?? (await loadMirrorMap());
  const cache = options.cache ?? new RepoCache();
  return async ({ attempt, tryDir, createSandbox, completeRecord, signal }) => {
    const result = await runAgentAttempt({
      task: attempt.task,
      mirrors,
      cache,
      variant: plan.variant,
      // The plan's template, not the options': a resume that leaves the flag out runs under the run's own.
      // With their sha256: a template or definition file edited while the run goes is refused at the next attempt, not mixed in.
      ...(typeof plan.agent === 'string' ? { installedAgent: { agent: plan.agent, ...plannedFiles(plan) } } : {}),
      ...(attempt.model === null ? {} : { model: attempt.model }),
      runDir: tryDir,
      skipBaseline: plan.skip_baseline,
      createSandbox,
      // Part of every exchange's key: repeats of one task are recorded and replayed independently.
      models: { repeatIndex: attempt.repeat - 1 },
      completeRecord,
      signal,
      ...(plan.max_steps === null ? {} : { maxSteps: plan.max_steps }),
      scanners,
      ...(plan.fail_on_suspicion === true ? { failOnSuspicion: true } : {}),
    });
    // A try the run folder could not hold is no observation: the run stops (a resume runs it again).
    if (result.writeFailure !== undefined) throw result.writeFailure;
    return result.record;
  };
}

/** The run's files for an installed agent's attempt: its template, and the sha256 each file's text (its definition's too) had when the run started. */
function plannedFiles(plan: RunPlan): Pick<InstalledAgentChoice, 'instructionTemplate' | 'instructionTemplateSha256' | 'agentDefinitionSha256'> {
  const template = plan.instruction_template;
  const definition = plan.agent_definition;
  return {
    ...(template === undefined || template === null ? {} : { instructionTemplate: template.file, instructionTemplateSha256: template.sha256 }),
    ...(definition === undefined || definition === null ? {} : { agentDefinitionSha256: definition.sha256 }),
  };
}
