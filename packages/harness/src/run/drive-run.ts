import { availableParallelism } from 'node:os';
import path from 'node:path';
import { runEfficiency, runScheduled, type AutoConcurrency, type ScheduleOptions, type ScheduledOutcome } from '@agentbench/scheduler';
import type { AttemptRecord, RunCounts, RunRecord } from '@agentbench/schemas';
import { appendAttemptRecord, appendAttemptRecordFreeingWorkspace, dropTornLine, readAttemptRecords } from '../artifacts/attempts-file.js';
import { createArtifactFolder, createUniqueDirectory, RUN_DIRECTORY_MODE } from '../artifacts/run-directory.js';
import { SandboxCpuMeter } from '../plan/sandbox-cpu-meter.js';
import { driveAttemptTries, type AttemptTries, type TriedOutcome, type TriesContext } from './drive-attempt-tries.js';
import { engineSandboxFactory } from './engines/engine-sandbox-factory.js';
import { acquireRunLock, type RunLock } from './run-lock.js';
import { writeFinishedRunJson, writeRunningRunJson } from './run-json.js';
import type { RunSandboxPool } from './run-sandbox-pool.js';
import { runSandboxFactory, type RunSandboxes } from './run-sandboxes.js';
import type { StartedRun } from './started-run.js';

export type { StartedRun } from './started-run.js';

/** The run's records, one line per finished attempt (or try), appended and synced as each ends. */
export const ATTEMPTS_FILE = 'attempts.jsonl';

/** Where a run goes: a folder named by the user (refused by the caller if it holds a run), a fresh unique one, or a run to resume. */
export type RunFolder = { kind: 'new'; runDir: string } | { kind: 'unique'; parent: string; name: string } | { kind: 'resume'; runDir: string };

/** How the finished run.json reads: its status and counts, and the run's failure (a failure of ours, which the driver throws). */
export interface RunEnd {
  status: 'completed' | 'interrupted' | 'failed';
  counts: RunCounts;
  failure?: unknown;
  /** The run kind's own fields of the finished run.json (run-task's `details`). */
  fields?: Record<string, unknown>;
}

/**
 * A run, as a command hands it to the driver: its attempt specs (`items`), how to run one try of one
 * and how to summarise them. Everything else (the folder, its lock, run.json, attempts.jsonl, the
 * scheduler and -j auto, the warm pool, where each try's sandboxes come from (engines and placement),
 * the judgment of a lost engine, retries, CPU metering and the order of the cleanup) is the driver's.
 */
export interface RunDriverPlan<Item, Outcome extends TriedOutcome = TriedOutcome> {
  folder: RunFolder;
  /** run.json while the run is going (status "running"); its `run_id` labels the run's sandboxes. */
  runRecord: RunRecord;
  items: readonly Item[];
  /**
   * Called once the lock is held, with what attempts.jsonl holds (nothing for a new run; a torn last
   * line dropped), before run.json says "running": the plan tells its finished attempts apart, and
   * removes what a killed run left behind.
   */
  resume?(records: readonly AttemptRecord[], lock: RunLock, runDir: string): Promise<void> | void;
  /** False for an attempt that has its final record already. */
  shouldRun(item: Item): boolean;
  /** The scheduler's limits and its events (at most the engines' capacities run at once). A failure of an item (a throw) stops the others. */
  schedule: Omit<ScheduleOptions<Item>, 'shouldRun' | 'stopOnFailure' | 'signal' | 'admit'>;
  /** `-j auto`: admits each attempt, and hears of its sandbox creates and its end. */
  auto?: AutoConcurrency;
  /** Where the tries' sandboxes come from (engines, the caller's factory, the runtime). Default: the pool, else Docker on the local engine. */
  sandboxes?: RunSandboxes;
  /** Aborting stops new attempts and interrupts the running ones; a resume finishes the run. */
  signal?: AbortSignal;
  /** The run's warm sandboxes (or none), started once run.json says "running"; disposed on every exit. */
  startPool?(run: { runDir: string; runId: string }): Promise<RunSandboxPool | undefined>;
  /** Run.json says "running" and the pool is up: the attempts are about to start. */
  onStarted?(run: StartedRun): Promise<void> | void;
  /** How an attempt runs: as tries the driver places, judges and retries (see AttemptTries). Give this or `runItem`. */
  tries?: AttemptTries<Item, Outcome>;
  /** An attempt the plan runs whole by itself (run-task's one attempt, on `run.createSandbox`). A throw is a failure of ours: it stops the run. */
  runItem?(item: Item, run: StartedRun, signal: AbortSignal): Promise<void>;
  /** The end of the run, from the scheduler's outcomes (every item's, in the items' order). */
  end(outcomes: ReadonlyArray<ScheduledOutcome<Item, void>>): RunEnd;
  /** On every exit, after the pool is gone and before the lock is released (a run's leftover containers). */
  cleanup?(run: { runDir: string; runId: string }): Promise<void>;
}

export interface DrivenRun<Item> {
  runDir: string;
  /** The finished run.json. */
  runRecord: RunRecord & { failure?: string } & Record<string, unknown>;
  outcomes: Array<ScheduledOutcome<Item, void>>;
  /** The run's pool (for its stats), already disposed; absent: the run had none. */
  pool: RunSandboxPool | undefined;
}

/** How the driver runs one item: the plan's own `runItem`, or its `tries`. */
function itemRunner<Item, Outcome extends TriedOutcome>(plan: RunDriverPlan<Item, Outcome>): (item: Item, run: StartedRun, signal: AbortSignal, context: TriesContext) => Promise<void> {
  const { tries, runItem } = plan;
  if ((tries === undefined) === (runItem === undefined)) throw new TypeError('a run plan gives either `tries` or `runItem`');
  if (tries !== undefined) return (item, run, signal, context) => driveAttemptTries(item, run, signal, tries, context);
  return (item, run, signal) => (runItem as NonNullable<typeof runItem>)(item, run, signal);
}

async function openRunFolder(folder: RunFolder): Promise<string> {
  if (folder.kind === 'unique') return createUniqueDirectory(folder.parent, folder.name);
  // Every write of the run folder (folders, run.lock, run.json, attempts.jsonl) fails as an ArtifactWriteError naming its path.
  if (folder.kind === 'new') {
    await createArtifactFolder(path.dirname(folder.runDir));
    await createArtifactFolder(folder.runDir, { mode: RUN_DIRECTORY_MODE });
  }
  return folder.runDir;
}

/**
 * The one run driver: every run (`ab run-task`, `ab validate-suite`, `ab run`, `ab bench-models`)
 * goes through it. It opens the run folder and takes its lock (`run.lock`), reads attempts.jsonl
 * back on a resume, writes run.json as the run starts and ends (run-json.ts), keeps the run's warm
 * pool, schedules the plan's attempts, runs each as tries on the run's sandboxes (placed on the
 * engines, judged, retried: driveAttemptTries), meters their CPU for run.json's efficiency, and appends
 * their records one at a time. On every exit the pool goes, then the plan's cleanup, then the lock.
 */
export async function driveRun<Item, Outcome extends TriedOutcome = TriedOutcome>(plan: RunDriverPlan<Item, Outcome>): Promise<DrivenRun<Item>> {
  const runItem = itemRunner(plan);
  const runDir = await openRunFolder(plan.folder);
  const runId = plan.runRecord.run_id;
  // The efficiency figure's inputs: the CPU of this run's sandboxes (metered by its factories), over its wall time.
  const meter = new SandboxCpuMeter();
  const startedAt = performance.now();
  const lock = await acquireRunLock(runDir);
  let pool: RunSandboxPool | undefined;
  try {
    const attemptsFile = path.join(runDir, ATTEMPTS_FILE);
    const content = await readAttemptRecords(attemptsFile);
    await dropTornLine(attemptsFile, content);
    await plan.resume?.(content.records, lock, runDir);
    await writeRunningRunJson(runDir, plan.runRecord);

    let appending: Promise<void> = Promise.resolve();
    const append = (record: AttemptRecord, workspaceDir?: string): Promise<void> => {
      const appended = appending.then(() => (workspaceDir === undefined ? appendAttemptRecord(attemptsFile, record) : appendAttemptRecordFreeingWorkspace(attemptsFile, record, workspaceDir)));
      appending = appended.catch(() => undefined);
      return appended;
    };
    pool = await plan.startPool?.({ runDir, runId });
    const sandboxes = plan.sandboxes ?? {};
    const run: StartedRun = { runDir, runId, attemptsFile, pool, append, createSandbox: meter.wrap(runSandboxFactory(sandboxes, pool)) };
    await plan.onStarted?.(run);

    const engines = sandboxes.engines;
    const context: TriesContext = { sandboxes, placer: engines === undefined ? undefined : engineSandboxFactory(engines), auto: plan.auto, meter };
    const scheduled = await runScheduled(
      plan.items,
      {
        ...plan.schedule,
        // With engines, the engine set also holds each start until a place is free: more would only queue there.
        ...(engines === undefined ? {} : { concurrency: Math.min(plan.schedule.concurrency, engines.totalCapacity) }),
        ...(plan.auto === undefined ? {} : { admit: plan.auto.admit }),
        shouldRun: (item) => plan.shouldRun(item),
        // Only a failure of ours throws (an attempt's own failures are records): it stops the others.
        stopOnFailure: true,
        ...(plan.signal === undefined ? {} : { signal: plan.signal }),
      },
      (item, { signal }) => runItem(item, run, signal, context),
    );
    await appending;
    const end = plan.end(scheduled.outcomes);
    const failure = end.failure;
    // Docker sandboxes only (bwrap and local runs have no container cgroup to read): no figure is better than a 0.
    const cpuSeconds = meter.cpuSeconds;
    const efficiency = cpuSeconds > 0 ? runEfficiency(cpuSeconds, availableParallelism(), (performance.now() - startedAt) / 1000) : undefined;
    const finished: DrivenRun<Item>['runRecord'] = {
      ...plan.runRecord,
      ...end.fields,
      finished_at: new Date().toISOString(),
      status: end.status,
      counts: end.counts,
      ...(efficiency === undefined ? {} : { efficiency }),
      ...(failure === undefined ? {} : { failure: failure instanceof Error ? failure.message : String(failure) }),
    };
    await writeFinishedRunJson(runDir, finished, failure, attemptsFile);
    return { runDir, runRecord: finished, outcomes: scheduled.outcomes, pool };
  } finally {
    // On every exit (an abort by Ctrl-C included): the warm sandboxes and the mount slots go.
    await pool?.dispose();
    await plan.cleanup?.({ runDir, runId });
    await lock.release();
  }
}
