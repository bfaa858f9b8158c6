import type { AttemptRecord, RunRecord, SuiteValidity, TaskValidity, ValidationIssue } from '@agentbench/schemas';
import type { AttemptOutcome, AttemptStage } from '../attempt/execute-attempt.js';
import type { SandboxPoolStats } from '@agentbench/sandbox';
import type { AttemptOrder } from '../run/longest-first-order.js';

/** How a task of a suite run ended. */
export type SuiteTaskStatus = 'valid' | 'invalid' | 'errored' | 'interrupted' | 'skipped' | 'not_run';

export interface SuiteTaskResult {
  taskId: string;
  status: SuiteTaskStatus;
  /** The final record (or the INTERRUPTED one), when the task ran. */
  record?: AttemptRecord;
  /** Set when the task ran in this process (not when its record comes from before a resume). */
  outcome?: AttemptOutcome;
  /** For skipped tasks: the labels that skipped them. */
  skippedBy?: string[];
  /** With `--oracle-runs`: the task's validity runs and verdict (when it ran in this process). */
  validity?: TaskValidity;
}

export interface ValidateSuiteResult {
  runDir: string;
  runId: string;
  runRecord: RunRecord;
  /** Every task of the run in suite order, skipped ones included. */
  tasks: SuiteTaskResult[];
  isInterrupted: boolean;
  isResumed: boolean;
  durationMs: number;
  /** With `--oracle-runs`: what `validity.json` holds. */
  validity?: SuiteValidity;
  /** Workspaces (`keepWorkspaces: 'none'`) that could not be removed, and why; absent when every one was. */
  workspaceRemovalFailures?: string[];
  /** What the run's pool of warm sandboxes handed out (absent: the run had no pool). */
  sandboxPool?: SandboxPoolStats;
}

export type SuiteEvent =
  | { type: 'suite-started'; runDir: string; runId: string; suite: string; total: number; toRun: string[]; order: AttemptOrder; timedByPastRuns: number; alreadyFinished: number; skipped: Array<{ taskId: string; labels: string[] }>; concurrency: number; isResumed: boolean; warnings: ValidationIssue[] }
  | { type: 'task-started'; taskId: string }
  | { type: 'task-stage'; taskId: string; stage: AttemptStage }
  | { type: 'task-finished'; taskId: string; result: SuiteTaskResult }
  | { type: 'suite-interrupting' }
  | { type: 'suite-finished'; result: ValidateSuiteResult };
