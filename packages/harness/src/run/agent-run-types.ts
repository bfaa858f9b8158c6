import type { AutoConcurrencyOptions } from '@agentbench/scheduler';
import type { AttemptRecord, EngineConfig, LoadedTask, RunPlan, ValidationIssue } from '@agentbench/schemas';
import type { SandboxPoolStats } from '@agentbench/sandbox';
import type { SandboxFactory } from '../plan/sandbox-factory.js';
import type { MirrorRule } from '../git/mirror-map.js';
import type { RepoCache } from '../git/repo-cache.js';
import type { PoolIdleCapacity } from './run-sandbox-pool.js';
import type { AgentRunProgress } from './run-progress.js';
import type { AttemptOrder } from './longest-first-order.js';

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
  /** An installed CLI agent, `NAME[@VERSION]` (`--agent codex`) or a definition file, instead of `variant`. */
  agent?: string;
  /** The installed agent's instruction from this template instead of the shipped one (`--instruction-template`). Part of the plan, with its content hash: a resume without it reuses the run's, and refuses another or an edited one. */
  instructionTemplate?: string;
  maxSteps?: number;
  /** Skip each attempt's baseline validation (validate the tasks once with `ab validate-suite`). Default true. */
  skipBaseline?: boolean;
  /** Count the attempts of tasks whose baseline was not shown to fail in pass rates (`--include-unvalidated`). Default false: they are left out, marked `unverified task`. */
  includeUnvalidated?: boolean;
  /** Where the `ab validate-suite` runs that tell each task's validity are (the latest run of its suite counts). Default `artifacts/runs`. */
  validityRunsDir?: string;
  /** Attempts in flight: a number, or `auto` (see AutoConcurrency). Default 2. */
  concurrency?: number | 'auto';
  /**
   * The order each repeat's attempts start in: `longest-first` (default: by the task's median duration
   * in the earlier `ab run`s in the run folder's parent, else its timeout) or `as-listed` (the tasks'
   * order). run.json's `options.order` and `options.start_order` say which.
   */
  order?: AttemptOrder;
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
