import { availableParallelism } from 'node:os';
import path from 'node:path';
import { AutoConcurrency, type AutoConcurrencyOptions } from '@agentbench/scheduler';
import {
  AgentBenchError,
  ConfigurationError,
  HARNESS_VERSION,
  loadSuite,
  loadTask,
  RUN_PLAN_VERSION,
  type AttemptRecord,
  type EngineConfig,
  type LoadedTask,
  type RunPlan,
  type RunRecord,
  type ValidationIssue,
} from '@agentbench/schemas';
import { pathExists, timestampForPath } from '@agentbench/helpers';
import type { SandboxPoolStats } from '@agentbench/sandbox';
import { ulid } from 'ulid';
import { loadScanners, type Scanner } from '@agentbench/evaluators';
import { DEFAULT_DOCKER_IMAGE } from '@agentbench/sandbox';
import { runAgentAttempt } from '../attempt/run-agent-attempt.js';
import type { SandboxFactory } from '../plan/sandbox-factory.js';
import { prepareRunEngines } from './engines/prepare-engines.js';
import { modelFolderName, providerOf, readModelList } from '../plan/model-list.js';
import { ArtifactWriteError } from '../errors/artifact-write-error.js';
import { RunDirectoryError } from '../errors/run-directory-error.js';
import { loadMirrorMap, type MirrorRule } from '../git/mirror-map.js';
import { RepoCache } from '../git/repo-cache.js';
import { DEFAULT_SKIP_LABELS } from '../plan/default-skip-labels.js';
import { createArtifactFolder, writeRunJson } from '../artifacts/run-directory.js';
import { attemptTryState, triesByAttempt } from './attempt-tries.js';
import { moveInterruptedTry } from './move-interrupted-try.js';
import { dockerOrphanEngine, removeOrphanedSandboxes } from './remove-orphaned-sandboxes.js';
import { agentRunSandboxPool } from './agent-run-sandbox-pool.js';
import type { PoolIdleCapacity, RunSandboxPool } from './run-sandbox-pool.js';
import { runFolderRecord } from './run-folder-record.js';
import { driveRun, type StartedRun } from './drive-run.js';
import type { TriedOutcome, TryInput } from './drive-attempt-tries.js';
import { readRunJson, RUN_JSON_FILE } from './run-json.js';
import { assertSamePlan } from './run-plan-check.js';
import { assertPlanCanStart, notStartedRecord } from './not-started-record.js';
import { readKnownValidity, taskValidityNote, validityWarnings } from './task-validity.js';
import { RunProgressCounter, type AgentRunProgress } from './run-progress.js';

/** One attempt of the plan: a task, a model, a repeat. */
export interface PlannedAttempt {
  /** `<model folder>/<task id>/r<repeat>`: stable across resumes, written in every try's record. */
  attemptId: string;
  task: LoadedTask;
  /** The model; null for an agent without one (the scripted agent). */
  model: string | null;
  /** The model, or the variant when there is none: what tables group by. */
  label: string;
  /** Absolute folder of the model's attempts. */
  folder: string;
  /** 1-based repeat (K of pass@k). */
  repeat: number;
}

/** One try of an attempt, as the attempt function gets it. */
export interface AttemptTryInput {
  attempt: PlannedAttempt;
  /** 1-based try. */
  try: number;
  /** The try's own folder (absent: the attempt creates it). */
  tryDir: string;
  /** The sandboxes of this try (the engine's factory, timed for `-j auto`). */
  createSandbox: SandboxFactory;
  /** With an engines list: the engine the try is placed on (its sandboxes are made there). */
  engine?: string;
  /** Completes the record before it is written, so `attempt.json` carries the run's fields too. */
  completeRecord: (record: AttemptRecord) => AttemptRecord;
  /** Aborted when the run stops: the try records itself INTERRUPTED. */
  signal: AbortSignal;
}

/**
 * Runs one try and returns its record. Throwing an AgentBenchError (the agent failed to load, a setting
 * it needs is missing) records the attempt as errored and not started (`not_started`), final; throwing
 * anything else (our bug) records nothing: the attempt is listed in its model's errors, and a resume runs it.
 */
export type AttemptTryFunction = (input: AttemptTryInput) => Promise<AttemptRecord>;

export interface AgentRunOptions {
  /** One task.yaml. Name one of `task`, `suite` or `tasks` (or none with `resume`: the run's own tasks). */
  task?: string;
  /** A suite (a folder under `tasksDir`); its tasks labelled `flaky` are left out unless `includeFlaky`. */
  suite?: string;
  tasksDir?: string;
  includeFlaky?: boolean;
  tasks?: readonly LoadedTask[];
  /** Model names, or a models.txt path or comma-separated list. Absent or empty: the agent's own (the scripted agent has none). */
  models?: string | readonly string[];
  /** Attempts per task and model (K of pass@k). Default 1. */
  runs?: number;
  /** The agent. Default `scripted` without models, `llm` with. */
  variant?: string;
  /** An installed CLI agent, `NAME[@VERSION]` (`--agent codex`), instead of `variant`. */
  agent?: string;
  maxSteps?: number;
  /** Skip each attempt's baseline validation (validate the tasks once with `ab validate-suite`). Default true. */
  skipBaseline?: boolean;
  /** Count the attempts of tasks whose baseline was not shown to fail in pass rates (`--include-unvalidated`). Default false: they are left out, marked `unverified task`. */
  includeUnvalidated?: boolean;
  /** Where the `ab validate-suite` runs that tell each task's validity are (the latest run of its suite counts). Default `artifacts/runs`. */
  validityRunsDir?: string;
  /** Attempts in flight: a number, or `auto` (see AutoConcurrency). Default 2. */
  concurrency?: number | 'auto';
  /** `auto`'s ceiling. Default: twice the cores, at least 2. */
  maxJobs?: number;
  /** Attempts in flight per key (default key: the model's provider). Default: the concurrency. */
  perKeyConcurrency?: number;
  /** The key an attempt's limit counts under (a provider, an engine). Default: the model's provider. */
  keyOf?: (attempt: PlannedAttempt) => string;
  /** Limits of single keys (an engine's own capacity). */
  limitsByKey?: ReadonlyMap<string, number>;
  /** Sandboxes of every attempt without an engine of its own. Default: hardened Docker containers. */
  createSandbox?: SandboxFactory;
  /**
   * Docker engines to place the tries on (`--engines FILE`, or `engines` of agentbench.config.json), as
   * validate-suite takes them. Checked before the run folder exists: every engine must answer, and missing
   * runner images are sent from the local engine. Each try goes to the engine with the most free capacity
   * and names it in its record (`engine`); a try lost to an engine that stopped answering is recorded as an
   * infrastructure try (`engine_unreachable`) and retried by `retries` on the others. At most
   * min(-j, the capacities' sum) attempts run at once (`-j auto` grows up to min(--max-jobs, that sum)).
   * Not with `createSandbox`. Default: the local engine only, no `engine` field.
   */
  engines?: readonly EngineConfig[];
  /** How long an engine showing signs of shutting down is watched after a failed try (judgeEngineLoss). Default 30 s. */
  dyingEngineGraceMs?: number;
  /** The OCI runtime of every sandbox (`--runtime`), part of the plan. Default: none (each task's, else the engine's, runc); on a resume, the run's. */
  runtime?: string;
  /** Tries after the first for an attempt that failed on infrastructure. Default 2. */
  retries?: number;
  /** A scanner's suspicion fails the attempt as SUSPECTED_TAMPERING (`--fail-on-suspicion`), part of the plan. Default false (each task's `evaluation.fail_on_suspicion`). */
  failOnSuspicion?: boolean;
  /** Plugins whose scanners read each attempt's changes beside the built-in rules (`--scanner`: paths or package names, resolved from the working directory), part of the plan. */
  scanners?: readonly string[];
  /** Wait before the second try; doubled each further try (capped at a minute). Default 2000 ms. */
  retryBackoffMs?: number;
  /** The run folder. Default `artifacts/runs/<timestamp>`. Refused when it holds a run already (resume it instead). */
  outDir?: string;
  /** A run folder to resume: only attempts without a final try run. */
  resume?: string;
  mirrors?: readonly MirrorRule[];
  cache?: RepoCache;
  /** Default: `runAgentAttempt` (the attempt pipeline). */
  runAttempt?: AttemptTryFunction;
  /** `-j auto`'s readings and thresholds (tests inject memory and sleep). */
  autoConcurrency?: Omit<AutoConcurrencyOptions, 'maxJobs'>;
  onProgress?: (event: AgentRunEvent) => void;
  /** Aborting stops new tries and interrupts the running ones; a resume finishes the run. */
  signal?: AbortSignal;
  /** Warm sandboxes the run's pool keeps at most (0: every sandbox is created cold). Default: one per attempt in flight, following -j auto's limit. See agentRunSandboxPool. */
  sandboxPoolSize?: number;
  /** When the run's pool warms in the background. Default: while the host has idle CPU (see startRunSandboxPool). */
  sandboxPoolIdleCapacity?: PoolIdleCapacity;
}

export type AgentRunEvent =
  | { type: 'task-warning'; issue: ValidationIssue }
  /** A task whose baseline was not shown to fail, or tasks never validated: said before the run starts. */
  | { type: 'validity-warning'; message: string }
  | { type: 'image-sent'; engine: string; image: string; bytes: number; durationMs: number }
  | { type: 'run-started'; runDir: string; isResumed: boolean; progress: AgentRunProgress }
  /** A try starts (with an engines list: once placed, on `engine`). */
  | { type: 'try-started'; attempt: PlannedAttempt; try: number; engine?: string; progress: AgentRunProgress }
  | { type: 'try-finished'; attempt: PlannedAttempt; try: number; record: AttemptRecord; willRetry: boolean; progress: AgentRunProgress }
  /** A try threw. `isErrored`: the attempt could not start and is recorded as errored (`not_started`); else nothing was recorded (our bug) and a resume runs it. */
  | { type: 'attempt-error'; attempt: PlannedAttempt; try: number; error: string; isErrored?: boolean; progress: AgentRunProgress }
  | { type: 'progress'; progress: AgentRunProgress };

/** A model of the run, as `summarizeModelBenchmark` (@agentbench/report) reads it. */
export interface AgentRunEntry {
  model: string;
  folder: string;
  isDropped: boolean;
  /** Attempts whose try threw instead of recording a result. */
  errors: string[];
}

export interface AgentRunResult {
  /** The run folder (`outDir` of the benchmark summary). */
  outDir: string;
  plan: RunPlan;
  runs: number;
  taskCount: number;
  entries: AgentRunEntry[];
  progress: AgentRunProgress;
  /** Every attempt has its final try. */
  isComplete: boolean;
  /** What the run's pool of warm sandboxes handed out (absent: the run had no pool). */
  sandboxPool?: SandboxPoolStats;
}

function wholeNumber(value: number | undefined, fallback: number, name: string, minimum: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < minimum) throw new ConfigurationError(name, `expected a whole number ≥ ${minimum}, found ${String(value)}`);
  return resolved;
}

async function readRunRecord(runDir: string): Promise<RunRecord & { plan: RunPlan }> {
  const record = await readRunJson(runDir, (problem) => new RunDirectoryError(runDir, `cannot resume: not an ab run folder (${problem}; expected the folder an \`ab run --out\` wrote, holding run.json)`));
  if (record.plan === undefined) throw new RunDirectoryError(path.join(runDir, RUN_JSON_FILE), 'cannot resume: not the run.json of an ab run (it has no plan)');
  return record as RunRecord & { plan: RunPlan };
}

async function loadRunTasks(options: AgentRunOptions, recorded: RunPlan | undefined): Promise<readonly LoadedTask[]> {
  const named = [options.task, options.suite, options.tasks].filter((value) => value !== undefined).length;
  if (named === 0 && recorded !== undefined) return Promise.all(recorded.tasks.map((task) => loadTask(task.file)));
  if (named !== 1) throw new ConfigurationError('tasks', `name exactly one of a task file, a suite or loaded tasks (found ${named})`);
  if (options.tasks !== undefined) return options.tasks;
  if (options.task !== undefined) return [await loadTask(options.task)];
  const suite = await loadSuite(options.tasksDir ?? 'tasks', options.suite as string);
  const skipped = options.includeFlaky === true ? [] : DEFAULT_SKIP_LABELS;
  return suite.tasks.filter((loaded) => !loaded.task.labels.some((label) => skipped.includes(label)));
}

/** The plan the options ask for; on a resume, what they leave unsaid is the recorded plan's. */
async function planOf(options: AgentRunOptions, tasks: readonly LoadedTask[], recorded: RunPlan | undefined): Promise<RunPlan> {
  const models = options.models === undefined ? (recorded?.models ?? []) : typeof options.models === 'string' ? await readModelList(options.models) : [...options.models];
  return {
    version: RUN_PLAN_VERSION,
    tasks: tasks.map((loaded) => ({ id: loaded.task.id, file: path.resolve(loaded.file) })),
    models,
    runs: wholeNumber(options.runs, recorded?.runs ?? 1, '--runs', 1),
    ...agentOfPlan(options, recorded, models),
    max_steps: options.maxSteps === undefined ? (recorded?.max_steps ?? null) : wholeNumber(options.maxSteps, 1, '--max-steps', 1),
    retries: wholeNumber(options.retries, recorded?.retries ?? 2, '--retries', 0),
    skip_baseline: options.skipBaseline ?? recorded?.skip_baseline ?? true,
    include_unvalidated: options.includeUnvalidated ?? recorded?.include_unvalidated ?? false,
    runtime: options.runtime ?? recorded?.runtime ?? null,
    fail_on_suspicion: options.failOnSuspicion ?? recorded?.fail_on_suspicion ?? false,
    scanners: options.scanners === undefined ? (recorded?.scanners ?? []) : [...options.scanners],
    harness_version: HARNESS_VERSION,
  };
}

/** The plan's agent: an installed agent (named by itself in the folders and tables), else the variant. */
function agentOfPlan(options: AgentRunOptions, recorded: RunPlan | undefined, models: readonly string[]): Pick<RunPlan, 'variant' | 'agent'> {
  const agent = options.agent ?? (options.variant === undefined ? recorded?.agent : undefined) ?? null;
  if (agent !== null) return { variant: agent.split('@')[0] ?? agent, agent };
  return { variant: options.variant ?? recorded?.variant ?? (models.length === 0 ? 'scripted' : 'llm') };
}

/** Attempts in the order they start: repeats outermost and models taking turns, so a stopped run has some of every model. */
function plannedAttempts(plan: RunPlan, tasks: readonly LoadedTask[], runDir: string): PlannedAttempt[] {
  const models: Array<string | null> = plan.models.length === 0 ? [null] : plan.models;
  const attempts: PlannedAttempt[] = [];
  for (let repeat = 1; repeat <= plan.runs; repeat += 1) {
    for (const task of tasks) {
      for (const model of models) {
        const label = model ?? plan.variant;
        const folderName = modelFolderName(label);
        attempts.push({ attemptId: `${folderName}/${task.task.id}/r${repeat}`, task, model, label, folder: path.join(runDir, folderName), repeat });
      }
    }
  }
  return attempts;
}

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
  const followLimit = (limit: number): void => {
    options.autoConcurrency?.onLimitChange?.(limit);
    if (options.sandboxPoolSize === undefined) runPool?.setSize(limit);
  };
  const auto = isAuto ? new AutoConcurrency({ ...options.autoConcurrency, maxJobs, onLimitChange: followLimit }) : undefined;

  // Said once the run is sure to start (its engines answer).
  for (const message of validityWarnings(tasks, knownValidity, plan)) options.onProgress?.({ type: 'validity-warning', message });
  const runTry = options.runAttempt ?? (await defaultAttemptTry(options, plan, scanners));
  const attempts = plannedAttempts(plan, tasks, runDir);
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
    options: { concurrency: isAuto ? 'auto' : concurrency, max_jobs: maxJobs, resumed: isResumed },
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
      runPool = await agentRunSandboxPool(options, { ...run, concurrency: auto?.limit ?? concurrency });
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
      ...(typeof plan.agent === 'string' ? { installedAgent: { agent: plan.agent } } : {}),
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
