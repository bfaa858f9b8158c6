import type { FailureReason } from '@agentbench/schemas';

/**
 * The stages of the attempt pipeline, in the order they can run. `baseline` is an agent
 * attempt's baseline validation (an attempt of its own, before the agent's); `baseline_run` and
 * `baseline_rerun` are the test runs of a baseline attempt.
 */
export type AttemptStage =
  | 'baseline'
  | 'git_clone'
  | 'git_checkout'
  | 'setup'
  | 'post_setup_check'
  | 'baseline_run'
  | 'baseline_rerun'
  | 'agent_run'
  | 'final_test';

/** What one stage did. Paths are relative to the run directory. */
export interface StageReport {
  stage: AttemptStage;
  durationMs: number;
  command?: string;
  exitCode?: number;
  timedOut?: boolean;
  failureReason?: FailureReason | null;
  log?: string;
  /** The log dropped output at the cap (`maxOutputBytes`). */
  logTruncated?: boolean;
}
