import type { Suspicion } from '@agentbench/schemas';
import type { BootstrapInterval, McNemarResult } from '@agentbench/scoring';

/**
 * What `compareRuns` finds between run A (the reference) and run B (the change): attempts paired
 * by task id and repeat index, the paired test, the pass-rate difference B − A with its interval,
 * figure deltas, and for each task whose outcome changed, where the two trajectories part.
 */
export const RUN_COMPARISON_VERSION = 1;

export type PairOutcome = 'regression' | 'fix' | 'both-passed' | 'both-failed' | 'errored';

export interface ComparedRun {
  /** The folder as given. */
  folder: string;
  /** Absolute. */
  dir: string;
  runId: string | null;
  kind: string | null;
  /** Attempts (and scenario runs) read from the folder. */
  attempts: number;
  /** Passed attempts among those paired and counted. */
  passed: number;
  /** passed / counted pairs; null when no pair counts. */
  passRate: number | null;
}

export interface AttemptSide {
  status: 'passed' | 'failed' | 'errored';
  /** The attempt's model, else its variant (`scripted`, `baseline`); null when the record names neither. */
  model: string | null;
  failureReason: string | null;
  durationSec: number | null;
  tokens: number | null;
  costUsd: number | null;
  steps: number | null;
  /** The attempt's folder (absolute), when it has one. */
  folder: string | null;
  /** What the scanners flagged in the attempt's changes (absent when it was not scanned). */
  suspicions?: Suspicion[];
}

export interface AttemptPair {
  taskId: string;
  /** 0-based: the n-th attempt of the task in each run, by start time. */
  repeat: number;
  outcome: PairOutcome;
  a: AttemptSide;
  b: AttemptSide;
}

/** One tool call of a trajectory. */
export interface ToolCallStep {
  /** 0-based position among the attempt's tool calls. */
  index: number;
  /** The loop's step number, when the event has one. */
  step: number | null;
  tool: string;
  /** The arguments as canonical JSON (keys sorted), cut to `TOOL_ARGUMENTS_CHARACTERS`. */
  arguments: string;
  /**
   * An `apply_patch` call's `unified_diff` as the text it is (not JSON-escaped), cut to
   * `TOOL_ARGUMENTS_CHARACTERS`, so a page can show it as a diff; absent for other calls.
   */
  patch?: string;
}

/** Where two runs' tool-call trajectories of one changed task part (not a cassette's `Divergence`: a replay's first unserved request). */
export interface TrajectoryDivergence {
  taskId: string;
  repeat: number;
  outcome: 'regression' | 'fix';
  /**
   * 0-based index of the first tool call that differs (name or arguments), or where one
   * trajectory ends before the other; null when both are the same call for call, or when
   * neither run recorded events.
   */
  index: number | null;
  /** Why there is no index, or a note (no events.jsonl for one side). */
  note: string | null;
  a: ToolCallStep | null;
  b: ToolCallStep | null;
  /** Both trajectories' tool calls (at most `MAX_TRAJECTORY_STEPS` each), for the side-by-side view. */
  trajectoryA: ToolCallStep[];
  trajectoryB: ToolCallStep[];
  omittedStepsA: number;
  omittedStepsB: number;
}

/**
 * A figure of both runs. Each side's total and mean are over the counted pairs where that side
 * reports the figure (null when none does: unknown, never 0); the deltas are over the pairs where
 * both sides report it (null when there is none).
 */
export interface FigureDelta {
  name: 'tokens' | 'cost_usd' | 'duration_sec' | 'steps';
  /** Counted pairs where both sides report the figure: what the deltas are taken over. */
  pairs: number;
  /** Counted pairs where A, and where B, reports the figure. */
  reportedA: number;
  reportedB: number;
  totalA: number | null;
  totalB: number | null;
  /** B − A summed over the pairs where both report it. */
  totalDelta: number | null;
  meanA: number | null;
  meanB: number | null;
  /** Mean of B − A over the pairs where both report it. */
  meanDelta: number | null;
}

export interface UnpairedAttempt {
  side: 'A' | 'B';
  taskId: string;
  repeat: number;
}

export interface RunComparison {
  version: typeof RUN_COMPARISON_VERSION;
  generatedAt: string;
  runA: ComparedRun;
  runB: ComparedRun;
  counts: {
    /** Pairs counted in the statistics (neither side errored). */
    pairs: number;
    regressions: number;
    fixes: number;
    bothPassed: number;
    bothFailed: number;
    /** Pairs left out because a side errored (an infrastructure failure is not a verdict). */
    errored: number;
    unpairedA: number;
    unpairedB: number;
  };
  mcnemar: McNemarResult;
  /** Pass-rate difference B − A; null when no pair counts. */
  passRateDifference: BootstrapInterval | null;
  figures: FigureDelta[];
  /** Every pair, regressions first, then fixes, then the rest; each group by task and repeat. */
  pairs: AttemptPair[];
  /** One entry per regression and fix. */
  divergences: TrajectoryDivergence[];
  unpaired: UnpairedAttempt[];
  /**
   * Models whose attempts report no cost (no price for them, and the provider sent none), per run:
   * their cost is unknown, not $0. Attempts without a model (the scripted agent) are not listed.
   */
  costUnknownModels: { a: string[]; b: string[] };
  /** Tasks only one run has. */
  tasksOnlyInA: string[];
  tasksOnlyInB: string[];
  verdict: {
    alpha: number;
    /** McNemar p < alpha and more regressions than fixes: what `--fail-on-regression` exits 1 on. */
    isSignificantlyWorse: boolean;
    isSignificantlyBetter: boolean;
  };
}
