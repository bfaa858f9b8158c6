import * as v from 'valibot';
import { IsoTimestampSchema, NonNegativeIntegerSchema } from '../shared/primitives.js';
import { RunPlanSchema } from './run-plan.js';

export const RUN_KINDS = ['task', 'suite_baseline', 'agent', 'scenario', 'matrix'] as const;
export const RunKindSchema = v.picklist(RUN_KINDS);
export type RunKind = v.InferOutput<typeof RunKindSchema>;

export const RUN_STATUSES = ['running', 'completed', 'interrupted', 'failed'] as const;
export const RunStatusSchema = v.picklist(RUN_STATUSES);
export type RunStatus = v.InferOutput<typeof RunStatusSchema>;

/** Outcome counts of the attempts in a run; `errored` counts attempts that crashed rather than failed. */
export const RunCountsSchema = v.object({
  total: NonNegativeIntegerSchema,
  passed: NonNegativeIntegerSchema,
  failed: NonNegativeIntegerSchema,
  errored: v.optional(NonNegativeIntegerSchema, 0),
  skipped: v.optional(NonNegativeIntegerSchema, 0),
});
export type RunCounts = v.InferOutput<typeof RunCountsSchema>;

/** `run.json`: written when a run starts (status `running`) and rewritten when it ends. */
export const RunRecordSchema = v.object({
  run_id: v.string(),
  kind: RunKindSchema,
  created_at: IsoTimestampSchema,
  finished_at: v.nullish(IsoTimestampSchema),
  harness_version: v.string(),
  suite: v.nullish(v.string()),
  task_ids: v.array(v.string()),
  options: v.record(v.string(), v.unknown()),
  status: RunStatusSchema,
  counts: v.nullish(RunCountsSchema),
  /** `ab run`: the plan a resume must match (absent in other runs' run.json). */
  plan: v.optional(RunPlanSchema),
  /** Why the run stopped before its end (an artifact that could not be written, ...). */
  failure: v.optional(v.string()),
  /**
   * Issue 26's efficiency figure: (CPU seconds the sandboxes used, from their cgroups ÷ cores) ÷ wall
   * time (runEfficiency of @agentbench/scheduler). Absent when the CPU time could not be read.
   */
  efficiency: v.optional(
    v.object({ cpu_seconds: v.pipe(v.number(), v.minValue(0)), cores: v.pipe(v.number(), v.minValue(1)), wall_seconds: v.pipe(v.number(), v.minValue(0)), value: v.pipe(v.number(), v.minValue(0)) }),
  ),
  /** A one-task run (`ab run-task`, `ab run-agent`): what ran and how it ended; its fields depend on the kind. */
  details: v.optional(v.record(v.string(), v.unknown())),
});
export type RunRecord = v.InferOutput<typeof RunRecordSchema>;
