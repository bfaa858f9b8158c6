import * as v from 'valibot';

// `bench-summary.json` of `ab bench-models`: per model, the figures read back from its folder like any report.

/** What a model probe found before a benchmark (does the model answer at all?); recorded as `probe` below. */
export interface ProbeOutcome {
  isAnswering: boolean;
  message: string;
}

const NullableNumber = v.nullable(v.number());
const CountsByReason = v.record(v.string(), v.number());

const BenchModelSummarySchema = v.object({
  model: v.string(),
  /** Absolute artifact folder of the model. */
  folder: v.string(),
  /** Dropped by the probe: never run. */
  dropped: v.boolean(),
  probe: v.nullable(v.object({ answering: v.boolean(), message: v.string() })),
  /** Attempts that threw instead of recording a result. */
  errors: v.array(v.string()),
  attempts: v.number(),
  passed: v.number(),
  pass_rate: NullableNumber,
  pass_rate_interval: v.nullable(v.tuple([v.number(), v.number()])),
  errored_not_counted: v.number(),
  conservative_pass_rate: NullableNumber,
  pass_at_k: v.array(v.object({ k: v.number(), value: NullableNumber })),
  mean_steps: NullableNumber,
  mean_tokens: NullableNumber,
  mean_cost_usd: NullableNumber,
  total_cost_usd: NullableNumber,
  cost_unknown_models: v.array(v.string()),
  /** What its attempts ran in (`backend docker, runtime runsc`); null when their records do not say. */
  sandbox: v.nullable(v.string()),
  mean_duration_sec: NullableNumber,
  failures_by_reason: CountsByReason,
  ran: v.number(),
  counted: v.number(),
  errored_by_reason: CountsByReason,
  unverified_tasks: v.array(v.string()),
  /** The attempt counts in words; null when the model's folder holds no attempt. */
  counts: v.nullable(v.string()),
  flagged_attempts: v.number(),
  flagged_passed: v.number(),
});

export const BenchSummarySchema = v.object({
  out_dir: v.string(),
  runs: v.number(),
  tasks: v.number(),
  models: v.array(BenchModelSummarySchema),
});
export type BenchSummary = v.InferOutput<typeof BenchSummarySchema>;
