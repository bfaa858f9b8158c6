import * as v from 'valibot';
import { IsoTimestampSchema, NonNegativeIntegerSchema, PositiveIntegerSchema } from '../shared/primitives.js';
import { FailureReasonSchema } from './failure-reason.js';
import { StopReasonSchema } from './stop-reason.js';
import { FailureClassSchema } from './failure-class.js';
import { SuspicionSchema } from './suspicion.js';

/** Version of the AttemptRecord layout; bumped on any change readers must know about (see README). */
export const ATTEMPT_RECORD_SCHEMA_VERSION = '0.1.0';

const IntegerSchema = v.pipe(v.number(), v.integer());

export const BaselineValidationResultSchema = v.object({
  attempted: v.boolean(),
  failed_as_expected: v.boolean(),
  exit_code: v.nullish(IntegerSchema),
  failure_reason: v.nullish(FailureReasonSchema),
});
export type BaselineValidationResult = v.InferOutput<typeof BaselineValidationResultSchema>;

/** What decided an agent attempt's verdict (see `TaskResult.verdict_basis`). */
export const VERDICT_BASES = ['named_tests', 'exit_code'] as const;
export const VerdictBasisSchema = v.picklist(VERDICT_BASES);
export type VerdictBasis = v.InferOutput<typeof VerdictBasisSchema>;

export const TaskResultSchema = v.object({
  passed: v.boolean(),
  exit_code: IntegerSchema,
  failure_reason: v.nullable(FailureReasonSchema),
  stop_reason: v.nullish(StopReasonSchema),
  /** Protected paths (the task's tests) the agent's diff changed; they never reach the final test run. */
  tampered_paths: v.optional(v.array(v.string())),
  /**
   * What decided the verdict of an agent attempt: `named_tests` (the task's FAIL_TO_PASS and PASS_TO_PASS
   * tests, read from a test report the harness owns) or `exit_code` (the task names no tests: the test
   * command's exit code, a weaker verdict). Absent in older records and on attempts without a verdict.
   */
  verdict_basis: v.optional(VerdictBasisSchema),
});
export type TaskResult = v.InferOutput<typeof TaskResultSchema>;

/** LLM settings of the attempt; `null` or absent for baselines and the scripted agent. Provider-specific extras are kept. */
export const ModelConfigSchema = v.looseObject({
  provider: v.string(),
  name: v.string(),
  temperature: v.nullish(v.number()),
  top_p: v.nullish(v.number()),
  max_tokens: v.nullish(IntegerSchema),
  prompt_version: v.nullish(v.string()),
});
export type ModelConfig = v.InferOutput<typeof ModelConfigSchema>;

export const LimitsConfigSchema = v.object({
  timeout_sec: PositiveIntegerSchema,
  tool_timeout_sec: v.nullish(PositiveIntegerSchema),
  max_steps: v.nullish(PositiveIntegerSchema),
  max_time_sec: v.nullish(v.pipe(v.number(), v.minValue(0))),
});
export type LimitsConfig = v.InferOutput<typeof LimitsConfigSchema>;

/** Counted (never estimated) usage of one attempt. */
export const AttemptMetricsSchema = v.object({
  steps: v.nullish(NonNegativeIntegerSchema),
  tool_calls: v.nullish(NonNegativeIntegerSchema),
  input_tokens: v.nullish(NonNegativeIntegerSchema),
  output_tokens: v.nullish(NonNegativeIntegerSchema),
  cost_usd: v.nullish(v.pipe(v.number(), v.minValue(0))),
  sandbox_time_ms: v.nullish(v.pipe(v.number(), v.minValue(0))),
  /** The final test stage of an agent attempt: the diff, then the tests in the fresh sandbox (including any wait for its setup). */
  final_test_ms: v.nullish(v.pipe(v.number(), v.minValue(0))),
});
export type AttemptMetrics = v.InferOutput<typeof AttemptMetricsSchema>;

/**
 * A task's validity as `ab run` saw it, in every record of its attempts:
 * - `valid`: its baseline was shown to fail (ab validate-suite, or this attempt's --validate-baseline);
 * - `unverified`: its baseline was not shown to fail (`reason`: BASELINE_NOT_FAILING, baseline-passes...);
 * - `unvalidated`: never validated (no validate-suite run of it was found, and no --validate-baseline).
 * `counted: false`: left out of pass rates (an unverified task, unless `ab run --include-unvalidated`).
 */
export const TaskValidityNoteSchema = v.object({
  status: v.picklist(['valid', 'unverified', 'unvalidated']),
  reason: v.optional(v.string()),
  /** Where the validity comes from: a validate-suite run folder's file, or `--validate-baseline`. */
  source: v.optional(v.string()),
  counted: v.boolean(),
});
export type TaskValidityNote = v.InferOutput<typeof TaskValidityNoteSchema>;

/**
 * One line of `attempts.jsonl`. Unknown keys are dropped on read (not rejected), so a newer writer's
 * extra fields do not break an older reader; `schema_version` is checked exactly.
 */
export const AttemptRecordSchema = v.object({
  schema_version: v.literal(ATTEMPT_RECORD_SCHEMA_VERSION),
  run_id: v.string(),
  task_id: v.string(),
  suite: v.string(),
  timestamp_start: IsoTimestampSchema,
  timestamp_end: IsoTimestampSchema,
  duration_sec: v.pipe(v.number(), v.minValue(0)),
  baseline_validation: BaselineValidationResultSchema,
  result: TaskResultSchema,
  artifact_paths: v.record(v.string(), v.string()),
  variant: v.nullish(v.string()),
  model: v.nullish(ModelConfigSchema),
  limits: LimitsConfigSchema,
  metrics: v.nullish(AttemptMetricsSchema),
  task_spec_version: v.nullish(v.string()),
  harness_min_version: v.nullish(v.string()),
  labels: v.nullish(v.array(v.string())),
  /**
   * Command logs (paths relative to the run directory) that dropped output at the output cap
   * (`environment.max_output_bytes`). Written by every new attempt, empty when nothing was cut;
   * absent in records from before the cap.
   */
  truncated_logs: v.optional(v.array(v.string())),
  /**
   * Who caused the failure (`infra`, `task`, `agent`; see @agentbench/scoring's failure classes).
   * Absent in older records and on passes: readers derive it (`failureClassOfRecord`).
   */
  failure_class: v.optional(v.nullable(FailureClassSchema)),
  /** The pipeline stage the attempt ended in: what the failure class is attributed by. */
  failure_stage: v.optional(v.nullable(v.string())),
  /**
   * What the harness saw that decided `failure_class`, in words: who or what ended the attempt
   * (the run stopped, the LLM endpoint answered 503, the agent raised an interrupt itself...).
   * Absent in older records.
   */
  failure_cause: v.optional(v.nullable(v.string())),
  /** `ab run`: the attempt this record is a try of (`<model folder>/<task id>/r<repeat>`); stable across resumes. */
  attempt_id: v.optional(v.string()),
  /** `ab run`: 1-based repeat of the task for its model (K of pass@k). */
  repeat: v.optional(PositiveIntegerSchema),
  /** `ab run`: 1-based try of the attempt; an infrastructure failure is tried again, the last try counts. */
  try: v.optional(PositiveIntegerSchema),
  /** `ab run`: every try failed on infrastructure (or the run was interrupted): left out of pass rates, counted as errored. */
  errored: v.optional(v.boolean()),
  /**
   * How an agent attempt's verdict sandbox got its post-setup state: `snapshot`, from the attempt's
   * own, taken before the agent ran (setup ran once); `rerun`, by running setup a second time (a
   * backend that cannot snapshot: bwrap, local, gVisor). Absent in older records and without a verdict.
   */
  verdict_setup: v.optional(v.picklist(['snapshot', 'rerun'])),
  /** The Docker engine (its name in the engines list) the attempt ran on; absent when the run had no engines list. */
  engine: v.optional(v.nullable(v.string())),
  /**
   * `ab run` with an engines list: the try was lost to its engine, which stopped answering; why, naming the
   * engine. Such a try is `infra` whatever its stage, and the attempt is tried again on another engine.
   */
  engine_unreachable: v.optional(v.string()),
  /** The sandbox backend the attempt ran in (`docker`, `bwrap`, `local`, a plugin's). Absent in older records. */
  backend: v.optional(v.string()),
  /**
   * The OCI runtime the agent and the tests ran under (`runc`, `runsc`): the one asked for (`--runtime`,
   * the task's `environment.runtime`), else the engine's default. Null for a backend without one
   * (bwrap, local). Absent in older records.
   */
  runtime: v.optional(v.nullable(v.string())),
  /**
   * `ab run`: the attempt could not start (no script for the scripted agent, an agent that failed to load):
   * `reason` in a few words (`no script`), `message` in full. Such a record is `errored` and final: a resume
   * does not run it again.
   */
  not_started: v.optional(v.object({ reason: v.string(), message: v.string() })),
  /** `ab run`: what the run knew of the task's validity (ab validate-suite, or --validate-baseline); absent in older records. */
  task_validity: v.optional(TaskValidityNoteSchema),
  /**
   * An agent attempt's changes as the scanners read them (built-in rules and plugins): each rule
   * broken, with the file, the line and a sentence. Empty: scanned, nothing found; absent: not
   * scanned (baselines, run-task, records from before scanners). A suspicion fails the attempt
   * (SUSPECTED_TAMPERING) only with `--fail-on-suspicion` or the task's `evaluation.fail_on_suspicion`.
   */
  suspicions: v.optional(v.array(SuspicionSchema)),
});
export type AttemptRecord = v.InferOutput<typeof AttemptRecordSchema>;
