import { availableParallelism } from 'node:os';
import path from 'node:path';
import { removedContainersCpuSeconds } from '@agentbench/sandbox';
import { runEfficiency, runScheduled, type ScheduleOptions, type ScheduledOutcome } from '@agentbench/scheduler';
import type { AttemptRecord, RunCounts, RunRecord } from '@agentbench/schemas';
import { appendAttemptRecord, appendAttemptRecordFreeingWorkspace, dropTornLine, readAttemptRecords } from '../artifacts/attempts-file.js';
import { createArtifactFolder, createUniqueDirectory, RUN_DIRECTORY_MODE } from '../artifacts/run-directory.js';
import { acquireRunLock, type RunLock } from './run-lock.js';
import { writeFinishedRunJson, writeRunningRunJson } from './run-json.js';
import type { RunSandboxPool } from './run-sandbox-pool.js';

/** The run's records, one line per finished attempt (or try), appended and synced as each ends. */
export const ATTEMPTS_FILE = 'attempts.jsonl';

/** Where a run goes: a folder named by the user (refused by the caller if it holds a run), a fresh unique one, or a run to resume. */
export type RunFolder = { kind: 'new'; runDir: string } | { kind: 'unique'; parent: string; name: string } | { kind: 'resume'; runDir: string };

/** What a plan's attempts see of the run they are part of. */
export interface StartedRun {
  runDir: string;
  runId: string;
  attemptsFile: string;
  /** The run's pool of warm sandboxes (absent: none). */
  pool: RunSandboxPool | undefined;
  /**
   * Appends one record to attempts.jsonl: one writer at a time, so lines never interleave, and each is
   * on disk before the promise settles. With `workspaceDir`, the record's workspace is freed first
   * (see appendAttemptRecordFreeingWorkspace). A failed append fails its caller only; the queue goes on.
   */
  append(record: AttemptRecord, workspaceDir?: string): Promise<void>;
}

/** How the finished run.json reads: its status and counts, and the run's failure (a failure of ours, which the driver throws). */
export interface RunEnd {
  status: 'completed' | 'interrupted' | 'failed';
  counts: RunCounts;
  failure?: unknown;
  /** The run kind's own fields of the finished run.json (run-task's `details`). */
  fields?: Record<string, unknown>;
}

/**
 * A run, as a command hands it to the driver: its attempt specs (`items`), how to run one and how to
 * summarise them. Everything else (the folder, its lock, run.json, attempts.jsonl, the scheduler,
 * the warm pool and the order of the cleanup) is the driver's.
 */
export interface RunDriverPlan<Item> {
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
  /** The scheduler's limits and its events. A failure of an item (a throw) stops the others. */
  schedule: Omit<ScheduleOptions<Item>, 'shouldRun' | 'stopOnFailure' | 'signal'>;
  /** Aborting stops new attempts and interrupts the running ones; a resume finishes the run. */
  signal?: AbortSignal;
  /** The run's warm sandboxes (or none), started once run.json says "running"; disposed on every exit. */
  startPool?(run: { runDir: string; runId: string }): Promise<RunSandboxPool | undefined>;
  /** Run.json says "running" and the pool is up: the attempts are about to start. */
  onStarted?(run: StartedRun): Promise<void> | void;
  /** Runs one attempt (its tries, its records). A throw is a failure of ours: it stops the run. */
  runItem(item: Item, run: StartedRun, signal: AbortSignal): Promise<void>;
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
 * pool, schedules the plan's attempts and appends their records one at a time. On every exit the
 * pool goes, then the plan's cleanup, then the lock.
 */
export async function driveRun<Item>(plan: RunDriverPlan<Item>): Promise<DrivenRun<Item>> {
  const runDir = await openRunFolder(plan.folder);
  const runId = plan.runRecord.run_id;
  // The efficiency figure's inputs: the CPU of the sandboxes removed from here on, over the run's wall time.
  const cpuAtStart = removedContainersCpuSeconds();
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
    const run: StartedRun = { runDir, runId, attemptsFile, pool, append };
    await plan.onStarted?.(run);

    const scheduled = await runScheduled(
      plan.items,
      {
        ...plan.schedule,
        shouldRun: (item) => plan.shouldRun(item),
        // Only a failure of ours throws (an attempt's own failures are records): it stops the others.
        stopOnFailure: true,
        ...(plan.signal === undefined ? {} : { signal: plan.signal }),
      },
      (item, { signal }) => plan.runItem(item, run, signal),
    );
    await appending;
    const end = plan.end(scheduled.outcomes);
    const failure = end.failure;
    // Docker sandboxes only (bwrap and local runs have no container cgroup to read): no figure is better than a 0.
    const cpuSeconds = removedContainersCpuSeconds() - cpuAtStart;
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
