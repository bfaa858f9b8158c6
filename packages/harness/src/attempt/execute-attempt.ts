import type { LoadedTask } from '@agentbench/schemas';
import { AttemptContext, type AttemptContextOptions } from './attempt-context.js';
import type { AttemptMode, AttemptOutcome } from './attempt-outcome.js';
import { runAttemptPipeline } from './run-attempt-pipeline.js';
import type { FlakyRerunPolicy } from './stages/baseline-tests.js';
import type { AttemptPaths } from '../artifacts/attempt-paths.js';

export type { AttemptStage, StageReport } from './attempt-stage.js';
export type { AttemptMode, AttemptOutcome, AttemptTimings } from './attempt-outcome.js';
export { DEFAULT_RERUN_BUDGET_FRACTION, type FlakyRerunPolicy } from './stages/baseline-tests.js';

export interface AttemptOptions extends Omit<AttemptContextOptions, 'loaded' | 'paths' | 'runId'> {
  paths: AttemptPaths;
  /** Run id: stored in the record and on the container's labels. */
  runId: string;
  /** Baseline only. Default `auto`. */
  flakyRerun?: FlakyRerunPolicy;
  /** Baseline only, for `auto`. Default 0.25. */
  rerunBudgetFraction?: number;
}

/**
 * Runs one attempt of a task through the attempt pipeline: clone and pin the repository, run
 * setup in a fresh sandbox with network, check the work tree, cut the network, run the test
 * command, and judge the result by `mode`. Never throws for a failing task: every way it can
 * end becomes an AttemptOutcome with a FailureReason. The sandbox is always removed before this
 * returns.
 */
export async function executeAttempt(loaded: LoadedTask, mode: AttemptMode, options: AttemptOptions): Promise<AttemptOutcome> {
  const { flakyRerun, rerunBudgetFraction, ...contextOptions } = options;
  const context = new AttemptContext({ ...contextOptions, loaded });
  const baselineTests = { ...(flakyRerun === undefined ? {} : { flakyRerun }), ...(rerunBudgetFraction === undefined ? {} : { rerunBudgetFraction }) };
  return runAttemptPipeline(context, mode === 'baseline' ? { kind: 'baseline', baselineTests } : { kind: 'task' });
}
