import * as v from 'valibot';
import { FailureReasonSchema } from '../records/failure-reason.js';

// `logs/<task>/attempt.json`: the harness's details of one task attempt (its stages, the baseline's
// mismatches, the failing tests), beside the AttemptRecord that points to it (`artifact_paths.attempt_details`).
// Told apart from an AttemptRecord, also named attempt.json, by having `stages` and no `schema_version`.

const StageReportSchema = v.object({
  stage: v.string(),
  durationMs: v.number(),
  command: v.optional(v.string()),
  exitCode: v.optional(v.number()),
  timedOut: v.optional(v.boolean()),
  failureReason: v.nullish(FailureReasonSchema),
  /** The stage's log, relative to the details file's folder or absolute. */
  log: v.optional(v.string()),
  /** The log dropped output at the cap (`maxOutputBytes`). */
  logTruncated: v.optional(v.boolean()),
});

// What reports read (`stages`, `mismatches`, `failing_tests`, `message`) is checked closely; the
// rest is optional, so details written by earlier versions, with fewer fields, still read.
export const AttemptDetailsSchema = v.object({
  task_id: v.string(),
  task_file: v.optional(v.string()),
  mode: v.optional(v.string()),
  failure_reason: v.nullish(FailureReasonSchema),
  stage: v.optional(v.string()),
  message: v.optional(v.string()),
  repository: v.optional(v.object({ url: v.string(), commit: v.string(), commit_sha: v.nullable(v.string()), source: v.nullable(v.string()) })),
  setup_commands: v.optional(v.array(v.object({ written: v.string(), run: v.string() }))),
  stages: v.array(StageReportSchema),
  /** Where the baseline differed from what task.yaml expects: the field of task.yaml and why. */
  mismatches: v.optional(v.array(v.object({ field: v.string(), message: v.string() })), []),
  failing_tests: v.optional(v.array(v.string()), []),
  workspace_note: v.optional(v.string()),
  timings_ms: v.optional(v.object({ total: v.number(), sandbox: v.number(), git: v.number() })),
});
export type AttemptDetails = v.InferOutput<typeof AttemptDetailsSchema>;

/** Whether a parsed attempt.json is the harness's details file rather than an AttemptRecord. */
export function isAttemptDetails(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Array.isArray((value as { stages?: unknown }).stages) && (value as { schema_version?: unknown }).schema_version === undefined;
}
