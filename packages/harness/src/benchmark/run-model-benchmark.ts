import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { runScheduled } from '@agentbench/scheduler';
import { loadSuite, loadTask, type LoadedTask, type ValidationIssue } from '@agentbench/schemas';
import { runAgentAttempt } from '../agent-attempt/run-agent-attempt.js';
import type { SandboxFactory } from '../attempt/sandbox-factory.js';
import { ConfigurationError } from '@agentbench/schemas';
import { loadMirrorMap, type MirrorRule } from '../git/mirror-map.js';
import { RepoCache } from '../git/repo-cache.js';
import { timestampForPath } from '@agentbench/schemas/internal';
import { DEFAULT_SKIP_LABELS } from '../suite/validate-suite.js';
import { modelFolderName, providerOf, readModelList } from './model-list.js';
import { probeModel, type ModelProbe, type ProbeOutcome } from './probe-model.js';

/** One attempt of the benchmark, as `runAttempt` gets it. */
export interface BenchAttemptInput {
  task: LoadedTask;
  model: string;
  /** 1-based repeat of this task for this model. */
  repeat: number;
  /** The model's artifact folder: the attempt writes its run folder inside it. */
  outDir: string;
  /** Aborted when the benchmark is stopped: the attempt records itself INTERRUPTED. */
  signal: AbortSignal;
}

export interface ModelBenchmarkOptions {
  /** Model names, or a models.txt path or comma-separated list (as `--models`). */
  models: string | readonly string[];
  /** One task.yaml. Name exactly one of `task`, `suite` or `tasks`. */
  task?: string;
  /** A suite (a folder under `tasksDir`); its tasks labelled `flaky` are left out unless `includeFlaky`. */
  suite?: string;
  /** Folder holding the suites. Default `tasks`. */
  tasksDir?: string;
  includeFlaky?: boolean;
  /** Tasks already loaded. */
  tasks?: readonly LoadedTask[];
  /** Repeats per task and model (K of pass@k). Default 1. */
  runs?: number;
  /** Attempts in flight at once, across models and tasks. Default 2. */
  concurrency?: number;
  /** Attempts in flight at once per provider (the part of the model name before `/`). Default: `concurrency`. */
  perProviderConcurrency?: number;
  /** The benchmark folder; each model gets `<outDir>/<model folder>/`. Default `artifacts/bench/<timestamp>`. */
  outDir?: string;
  /** A cheap call first; models that do not answer are dropped (and listed). `true`: one LLM completion of 16 tokens. */
  probe?: boolean | ModelProbe;
  /** The agent; it gets each model as its model. Default `llm`. */
  variant?: string;
  /** Tool calls allowed. Default: the task's `agent.max_steps`. */
  maxSteps?: number;
  mirrors?: readonly MirrorRule[];
  cache?: RepoCache;
  /** Sandboxes of the default attempt (e.g. `withRuntime(createDockerSandbox, 'runsc')` for `--runtime`). Default: hardened Docker containers. */
  createSandbox?: SandboxFactory;
  /**
   * Runs one attempt and writes its artifacts under `input.outDir`. Default: `runAgentAttempt`
   * with `variant`, the model and `maxSteps`, its baseline skipped (validate the tasks once with
   * `ab validate-suite`).
   */
  runAttempt?: (input: BenchAttemptInput) => Promise<void>;
  onProgress?: (event: BenchProgressEvent) => void;
  /** Aborting stops new attempts and interrupts the running ones. */
  signal?: AbortSignal;
}

export type BenchProgressEvent =
  | { type: 'task-warning'; issue: ValidationIssue }
  | { type: 'probe'; model: string; outcome: ProbeOutcome }
  | { type: 'attempt-started'; model: string; task: string; repeat: number }
  | { type: 'attempt-finished'; model: string; task: string; repeat: number; error?: string };

/** A model of the benchmark, before its figures are read back from its folder. */
export interface ModelBenchmarkRunEntry {
  model: string;
  /** Absolute artifact folder of the model. */
  folder: string;
  probe?: ProbeOutcome;
  /** Dropped by the probe: never run. */
  isDropped: boolean;
  /** Attempts that threw instead of recording a result (configuration errors, our bugs). */
  errors: string[];
}

/** What ran where; `summarizeModelBenchmark` of @agentbench/report reads the figures from it. */
export interface ModelBenchmarkRun {
  outDir: string;
  runs: number;
  taskCount: number;
  entries: ModelBenchmarkRunEntry[];
}

interface Job {
  task: LoadedTask;
  entry: ModelBenchmarkRunEntry;
  repeat: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 1) throw new ConfigurationError(name, `expected a whole number ≥ 1, found ${String(value)}`);
  return resolved;
}

async function loadBenchTasks(options: ModelBenchmarkOptions): Promise<readonly LoadedTask[]> {
  const named = [options.task, options.suite, options.tasks].filter((value) => value !== undefined).length;
  if (named !== 1) throw new ConfigurationError('tasks', `name exactly one of a task file, a suite or loaded tasks (found ${named})`);
  if (options.tasks !== undefined) return options.tasks;
  if (options.task !== undefined) return [await loadTask(options.task)];
  const suite = await loadSuite(options.tasksDir ?? 'tasks', options.suite as string);
  const skipped = options.includeFlaky === true ? [] : DEFAULT_SKIP_LABELS;
  return suite.tasks.filter((loaded) => !loaded.task.labels.some((label) => skipped.includes(label)));
}

/**
 * `ab bench-models`: the same tasks across several models. An optional probe drops models that do
 * not answer, then every (model, task, repeat) agent attempt runs through the scheduler with a
 * global and a per-provider limit, each model writing into its own folder. An attempt that throws
 * is listed in its model's `errors`; the others go on. The figures are read back from the folders
 * by `summarizeModelBenchmark` (@agentbench/report), like any report.
 */
export async function runModelBenchmark(options: ModelBenchmarkOptions): Promise<ModelBenchmarkRun> {
  const runs = positive(options.runs, 1, '--runs');
  const concurrency = positive(options.concurrency, 2, '-j');
  const perProvider = positive(options.perProviderConcurrency, concurrency, '--per-provider');
  const models = typeof options.models === 'string' ? await readModelList(options.models) : options.models;
  if (models.length === 0) throw new ConfigurationError('--models', 'no models to run');
  const tasks = await loadBenchTasks(options);
  if (tasks.length === 0) throw new ConfigurationError('tasks', 'no tasks to run');
  for (const issue of tasks.flatMap((loaded) => loaded.warnings)) options.onProgress?.({ type: 'task-warning', issue });

  const outDir = path.resolve(options.outDir ?? path.join('artifacts', 'bench', timestampForPath()));
  await mkdir(outDir, { recursive: true });
  const entries: ModelBenchmarkRunEntry[] = models.map((model) => ({ model, folder: path.join(outDir, modelFolderName(model)), isDropped: false, errors: [] }));
  const limits = { concurrency, keyOf: (entry: ModelBenchmarkRunEntry) => providerOf(entry.model), limitPerKey: perProvider, ...(options.signal === undefined ? {} : { signal: options.signal }) };

  const probe = options.probe === true ? probeModel : options.probe === false ? undefined : options.probe;
  if (probe !== undefined) {
    await runScheduled(entries, limits, async (entry, { signal }) => {
      let outcome: ProbeOutcome;
      try {
        outcome = await probe(entry.model, signal);
      } catch (error) {
        outcome = { isAnswering: false, message: error instanceof Error ? error.message : String(error) };
      }
      entry.probe = outcome;
      entry.isDropped = !outcome.isAnswering;
      options.onProgress?.({ type: 'probe', model: entry.model, outcome });
    });
  }

  const runAttempt = options.runAttempt ?? (await agentAttemptRunner(options));
  // Models take turns, so every model makes progress even when the run is stopped early.
  const jobs: Job[] = [];
  for (let repeat = 1; repeat <= runs; repeat += 1) {
    for (const task of tasks) {
      for (const entry of entries) if (!entry.isDropped) jobs.push({ task, entry, repeat });
    }
  }
  await runScheduled(jobs, { ...limits, keyOf: (job: Job) => providerOf(job.entry.model) }, async ({ task, entry, repeat }, { signal }) => {
    const taskName = task.task.id;
    options.onProgress?.({ type: 'attempt-started', model: entry.model, task: taskName, repeat });
    await mkdir(entry.folder, { recursive: true });
    try {
      await runAttempt({ task, model: entry.model, repeat, outDir: entry.folder, signal });
      options.onProgress?.({ type: 'attempt-finished', model: entry.model, task: taskName, repeat });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      entry.errors.push(`${taskName} #${repeat}: ${message}`);
      options.onProgress?.({ type: 'attempt-finished', model: entry.model, task: taskName, repeat, error: message });
    }
  });
  return { outDir, runs, taskCount: tasks.length, entries };
}

/** The default attempt: the agent on the model, its baseline skipped, sharing one mirror map and repository cache. */
async function agentAttemptRunner(options: ModelBenchmarkOptions): Promise<(input: BenchAttemptInput) => Promise<void>> {
  const mirrors = options.mirrors ?? (await loadMirrorMap());
  const cache = options.cache ?? new RepoCache();
  return async ({ task, model, outDir, signal }) => {
    await runAgentAttempt({
      task,
      mirrors,
      cache,
      variant: options.variant ?? 'llm',
      model,
      outDir,
      skipBaseline: true,
      signal,
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(options.createSandbox === undefined ? {} : { createSandbox: options.createSandbox }),
    });
  };
}
