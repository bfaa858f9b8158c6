import * as v from 'valibot';
import { PositiveIntegerSchema, NonNegativeIntegerSchema } from '../shared/primitives.js';

/** Version of the run plan layout in `run.json` (`plan`). */
export const RUN_PLAN_VERSION = 1;

export const RunPlanTaskSchema = v.object({
  id: v.string(),
  /** The task.yaml the run loads again on resume. */
  file: v.string(),
});
export type RunPlanTask = v.InferOutput<typeof RunPlanTaskSchema>;

/**
 * A file of the user's that the attempts read (an instruction template, an agent definition): its
 * absolute path and the sha256 of its text as read, so a resume can tell the file was edited since.
 * For a template, the hash's first 12 hex are those of the attempts' `prompt_version`.
 */
export const RunPlanFileSchema = v.object({
  file: v.string(),
  sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
});
export type RunPlanFile = v.InferOutput<typeof RunPlanFileSchema>;

/**
 * `ab run`'s plan, kept in `run.json` under `plan`: what the run is (tasks × models × runs and the
 * settings that change results). A resume must name the same plan; `-j` and the output options
 * are not part of it.
 */
export const RunPlanSchema = v.object({
  version: v.literal(RUN_PLAN_VERSION),
  tasks: v.array(RunPlanTaskSchema),
  /** Model names; `[]` for an agent without a model (the scripted agent). */
  models: v.array(v.string()),
  runs: PositiveIntegerSchema,
  variant: v.string(),
  /** An installed CLI agent, `NAME@VERSION` (`--agent codex`), run through the attempt's model gateway; `variant` is then its name. Absent: `variant` runs. */
  agent: v.optional(v.nullable(v.string())),
  /** When `agent` is a definition file of the user's (`--agent ./my-agent.yaml`): that file. Absent: a definition by name, or a run written before it. */
  agent_definition: v.optional(v.nullable(RunPlanFileSchema)),
  /** The installed agent's instruction template (`--instruction-template`); a resume reuses it. Absent: the shipped instruction (or a run written before it). */
  instruction_template: v.optional(v.nullable(RunPlanFileSchema)),
  max_steps: v.nullable(PositiveIntegerSchema),
  /** Tries after the first for an attempt that failed on infrastructure. */
  retries: NonNegativeIntegerSchema,
  skip_baseline: v.boolean(),
  /**
   * The OCI runtime every sandbox of the run uses (`--runtime`); null or absent: no override (each
   * task's `environment.runtime`, else the engine's default, runc). Absent in runs written before it.
   */
  runtime: v.optional(v.nullable(v.string())),
  /** Attempts of tasks whose baseline was not shown to fail count in pass rates (`--include-unvalidated`). Absent: false. */
  include_unvalidated: v.optional(v.boolean()),
  /** `--fail-on-suspicion`: a flagged attempt fails as SUSPECTED_TAMPERING. Absent in runs written before it (false). */
  fail_on_suspicion: v.optional(v.boolean()),
  /** `--scanner` references (plugin paths or package names), loaded again on resume. Absent in runs written before it (none). */
  scanners: v.optional(v.array(v.string())),
  harness_version: v.string(),
});
export type RunPlan = v.InferOutput<typeof RunPlanSchema>;
