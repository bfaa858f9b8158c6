import type { AttemptRecord, FailureReason } from '@agentbench/schemas';
import type { BaselineMismatch } from '../validation/check-baseline-expectations.js';
import type { AttemptStage, StageReport } from './attempt-stage.js';

/** `baseline`: the tests must fail (validate_baseline). `task`: run the tests and report them (run_task). */
export type AttemptMode = 'baseline' | 'task';

export interface AttemptTimings {
  totalMs: number;
  /** Time spent inside the attempt's Sandbox calls: create, exec, setNetwork, dispose. */
  sandboxMs: number;
  /** Time spent in git on the host (clone, checkout, snapshots). */
  gitMs: number;
}

/** What a baseline or run-task attempt gives back (an agent attempt gives a RunAgentAttemptResult). */
export interface AttemptOutcome {
  record: AttemptRecord;
  failureReason: FailureReason | null;
  /** baseline: the task is valid (its tests fail as they should); task: the tests passed. */
  isSuccess: boolean;
  /** The stage that decided the outcome. */
  stage: AttemptStage;
  /** One line for people: why the attempt ended as it did. */
  message: string;
  stages: StageReport[];
  mismatches: BaselineMismatch[];
  /** Failing test ids parsed from the (first) test run. */
  failingTests: string[];
  /** A baseline with named tests and a report: the report keys of the tests that passed (PASS_TO_PASS when the task names none). */
  passingTestKeys?: string[];
  /** Each setup command as written and as run (after pip normalisation). */
  setupCommands: Array<{ written: string; run: string }>;
  commitSha?: string;
  repositorySource?: string;
  /** What became of the workspace when it was not kept whole (over the budget, cleaned). */
  workspaceNote?: string;
  timings: AttemptTimings;
}
