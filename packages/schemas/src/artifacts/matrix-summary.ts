import * as v from 'valibot';

// `summary.json` of a matrix run: the success rates overall, per combination and per parameter value, and every run.

const RateFiguresEntries = {
  runs: v.number(),
  passed: v.number(),
  failed: v.number(),
  errored: v.number(),
  /** passed / runs (errored runs count as not passed). */
  success_rate: v.nullable(v.number()),
  /** 95% Wilson interval of the success rate. */
  interval: v.object({ lower: v.number(), upper: v.number() }),
  /** Share of combinations whose k repeats all passed (pass^k, k = runs_per_combination). */
  pass_hat_k: v.nullable(v.number()),
};

const MatrixRunRecordSchema = v.object({
  combination: v.string(),
  parameters: v.record(v.string(), v.unknown()),
  /** From 1. */
  repeat: v.number(),
  run_id: v.string(),
  seed: v.number(),
  status: v.picklist(['passed', 'failed', 'errored']),
  passed: v.boolean(),
  duration_ms: v.number(),
  result_file: v.optional(v.string()),
  /** Why the run could not start or finish. */
  error: v.optional(v.string()),
});

export const MatrixSummarySchema = v.object({
  schema_version: v.literal(1),
  name: v.string(),
  matrix_file: v.string(),
  base_scenario: v.string(),
  started_at: v.string(),
  finished_at: v.string(),
  seed: v.number(),
  runs_per_combination: v.number(),
  parallel: v.number(),
  filter: v.optional(v.string()),
  overall: v.object(RateFiguresEntries),
  combinations: v.array(v.object({ ...RateFiguresEntries, id: v.string(), label: v.string(), parameters: v.record(v.string(), v.unknown()) })),
  parameters: v.array(v.object({ parameter: v.string(), values: v.array(v.object({ ...RateFiguresEntries, value: v.unknown() })) })),
  runs: v.array(MatrixRunRecordSchema),
  output_dir: v.optional(v.string()),
});
export type MatrixSummary = v.InferOutput<typeof MatrixSummarySchema>;
