import type { AttemptRecord } from '@agentbench/schemas';
import type { SandboxFactory } from '../plan/sandbox-factory.js';
import type { RunSandboxPool } from './run-sandbox-pool.js';

/** What a plan's attempts see of the run they are part of (driveRun). */
export interface StartedRun {
  runDir: string;
  runId: string;
  attemptsFile: string;
  /** The run's pool of warm sandboxes (absent: none). */
  pool: RunSandboxPool | undefined;
  /**
   * The run's sandboxes outside any try's placement (an oracle check, a plan's own attempt): the
   * caller's factory, else the pool, else Docker, under the run's runtime; metered for run.json's efficiency.
   */
  createSandbox: SandboxFactory;
  /**
   * Appends one record to attempts.jsonl: one writer at a time, so lines never interleave, and each is
   * on disk before the promise settles. With `workspaceDir`, the record's workspace is freed first
   * (see appendAttemptRecordFreeingWorkspace). A failed append fails its caller only; the queue goes on.
   */
  append(record: AttemptRecord, workspaceDir?: string): Promise<void>;
}
