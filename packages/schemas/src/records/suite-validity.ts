import * as v from 'valibot';
import { IsoTimestampSchema, NonNegativeIntegerSchema, PositiveIntegerSchema } from '../shared/primitives.js';

/**
 * Verdicts of `ab validate-suite --oracle-runs N` on one task. Only `valid` keeps a task: its
 * baseline failed as expected every time and its reference patch passed every time.
 * - `no_oracle`: the task has no reference patch, so it cannot be shown solvable (never valid by default);
 * - `oracle_does_not_apply`: the reference patch did not apply in some run (checked before `oracle_fails`);
 * - `oracle_fails` / `oracle_flaky`: the reference patch passed in no run / in some runs only;
 * - `baseline_passes` / `baseline_flaky`: the baseline failed as expected in no run / in some runs only;
 * - `setup_failed` / `baseline_timeout`: the baseline failed as expected in no run, and setup failed (or timed
 *   out) / the test command timed out in some: what happened, rather than `baseline_passes`;
 * - `errored`: a run could not be judged (an infrastructure failure, an interruption): run it again;
 * - `not_checked`: no validity runs (a task finished before a resume without them).
 */
export const TASK_VALIDITY_VERDICTS = [
  'valid',
  'no_oracle',
  'oracle_does_not_apply',
  'oracle_fails',
  'oracle_flaky',
  'baseline_passes',
  'baseline_flaky',
  'setup_failed',
  'baseline_timeout',
  'errored',
  'not_checked',
] as const;
export const TaskValidityVerdictSchema = v.picklist(TASK_VALIDITY_VERDICTS);
export type TaskValidityVerdict = v.InferOutput<typeof TaskValidityVerdictSchema>;

/** One task's validity runs: `validity/<task_id>/task-validity.json` of a suite run. */
export const TaskValiditySchema = v.object({
  task_id: v.string(),
  verdict: TaskValidityVerdictSchema,
  /** Runs asked for (N). */
  runs: NonNegativeIntegerSchema,
  has_oracle: v.boolean(),
  /** Oracle runs whose final test passed. */
  oracle_passes: NonNegativeIntegerSchema,
  oracle_runs: NonNegativeIntegerSchema,
  /** Baseline runs that failed as the task expects. */
  baseline_failures: NonNegativeIntegerSchema,
  baseline_runs: NonNegativeIntegerSchema,
  /** Runs (of either kind) that could not be judged. */
  errored_runs: NonNegativeIntegerSchema,
  /** Failure reasons seen, one per run that did not do what it should (`oracle: TESTS_FAILED`). */
  reasons: v.array(v.string()),
  /** Folders of the runs, relative to the suite run's folder. */
  run_folders: v.array(v.string()),
  message: v.string(),
});
export type TaskValidity = v.InferOutput<typeof TaskValiditySchema>;

/** `validity.json` of a suite run made with `--oracle-runs N`. Absent in other runs. */
export const SuiteValiditySchema = v.object({
  run_id: v.string(),
  oracle_runs: PositiveIntegerSchema,
  written_at: IsoTimestampSchema,
  /** Tasks with verdict `valid`. */
  valid: NonNegativeIntegerSchema,
  /** Tasks checked (every task of the run but the skipped ones). */
  total: NonNegativeIntegerSchema,
  tasks: v.array(TaskValiditySchema),
});
export type SuiteValidity = v.InferOutput<typeof SuiteValiditySchema>;
