import type { TaskValidityVerdict } from '@agentbench/schemas';

export interface ValidityCounts {
  /** Runs asked for of each kind (N). */
  runs: number;
  hasOracle: boolean;
  /** Oracle runs whose final test passed. */
  oraclePasses: number;
  /** Oracle runs whose reference patch did not apply (0 when not counted). */
  oracleNotApplied?: number;
  /** Baseline runs that failed as the task expects. */
  baselineFailures: number;
  /** Runs of either kind that could not be judged (infrastructure, interruption). */
  erroredRuns: number;
  /** Baseline runs whose setup failed or timed out (SETUP_FAILED, SETUP_TIMEOUT). */
  baselineSetupFailures?: number;
  /** Baseline runs whose test command timed out (TIMEOUT). */
  baselineTimeouts?: number;
}

/**
 * The validity verdict of a task from its counts. Order (first that applies wins, so the verdict
 * names the most basic problem): a run that could not be judged makes the task `errored` (no
 * claim either way; an infrastructure failure is not the task's); then the baseline, since a
 * task whose tests pass before any change is broken whatever its oracle does: never failed as
 * expected is `setup_failed` (setup failed in some run), `baseline_timeout` (the tests timed out
 * in some run), else `baseline_passes`; `baseline_flaky` (failed as expected sometimes); then `no_oracle` (nothing shows the
 * task solvable); then `oracle_does_not_apply` (the patch did not apply in some run: it was never
 * tried, and the fix is a new patch, not a look at the tests); then `oracle_fails` (never passed),
 * `oracle_flaky` (sometimes); else `valid`.
 */
export function taskValidityVerdict(counts: ValidityCounts): TaskValidityVerdict {
  const { runs, hasOracle, oraclePasses, baselineFailures, erroredRuns } = counts;
  if (runs < 1) return 'not_checked';
  if (erroredRuns > 0) return 'errored';
  if (baselineFailures === 0) {
    // Name what happened: a baseline that never ran its tests to the end did not pass either.
    if ((counts.baselineSetupFailures ?? 0) > 0) return 'setup_failed';
    if ((counts.baselineTimeouts ?? 0) > 0) return 'baseline_timeout';
    return 'baseline_passes';
  }
  if (baselineFailures < runs) return 'baseline_flaky';
  if (!hasOracle) return 'no_oracle';
  if ((counts.oracleNotApplied ?? 0) > 0) return 'oracle_does_not_apply';
  if (oraclePasses === 0) return 'oracle_fails';
  if (oraclePasses < runs) return 'oracle_flaky';
  return 'valid';
}

const VERDICT_MESSAGES: Record<TaskValidityVerdict, string> = {
  valid: 'baseline failed and the reference patch passed in every run',
  no_oracle: 'no reference patch (gold.patch): the task cannot be shown solvable',
  oracle_does_not_apply: "the reference patch does not apply to the task's commit after setup",
  oracle_fails: 'the reference patch never passed the tests',
  oracle_flaky: 'the reference patch passed in some runs only',
  baseline_passes: 'the baseline never failed as the task expects',
  baseline_flaky: 'the baseline failed as expected in some runs only',
  setup_failed: "the task's setup failed (or timed out) before its tests could run",
  baseline_timeout: 'the baseline never failed as the task expects: its tests timed out',
  errored: 'some runs could not be judged (infrastructure or interruption): run again',
  not_checked: 'no validity runs',
};

/** One line for a verdict, with the counts: `oracle passed 1/2, baseline failed 2/2: …`. */
export function describeTaskValidity(verdict: TaskValidityVerdict, counts: ValidityCounts): string {
  const notApplied = (counts.oracleNotApplied ?? 0) > 0 ? ` (did not apply ${counts.oracleNotApplied}/${counts.runs})` : '';
  const oracle = counts.hasOracle ? `oracle passed ${counts.oraclePasses}/${counts.runs}${notApplied}` : 'no oracle';
  const errored = counts.erroredRuns > 0 ? `, ${counts.erroredRuns} errored` : '';
  return `${oracle}, baseline failed ${counts.baselineFailures}/${counts.runs}${errored}: ${VERDICT_MESSAGES[verdict]}`;
}
