import * as v from 'valibot';

// `result.json` of one scenario run: the scenario runner writes it through `ScenarioRunResult`, and
// replays and reports read it through `ScenarioRunResultSchema`. Fields added after the first
// release are optional (or default to empty) so results written by earlier versions still read.

export const SCENARIO_RESULT_SCHEMA_VERSION = 1;

const EvaluationRecordSchema = v.object({
  /** Run step (from 0). */
  step: v.number(),
  /** `step`: the step's `evaluations`; `turn`: a conversation's `turn_evaluations`; `final`: its `final_evaluations`. */
  phase: v.picklist(['step', 'turn', 'final']),
  turn: v.optional(v.number()),
  type: v.string(),
  description: v.optional(v.string()),
  success: v.boolean(),
  message: v.string(),
  score: v.optional(v.number()),
  weight: v.number(),
  negated: v.boolean(),
  details: v.optional(v.unknown()),
  /** Why the evaluator could not give a verdict; such an evaluation never passes. */
  error: v.optional(v.string()),
});

const ConversationTurnResultSchema = v.object({
  turn: v.number(),
  user_input: v.string(),
  agent_response: v.string(),
  started_at: v.string(),
  duration_ms: v.number(),
  error: v.optional(v.string()),
});

const ConversationStepResultSchema = v.object({
  turns: v.array(ConversationTurnResultSchema),
  turn_count: v.number(),
  terminated_early: v.boolean(),
  termination_reason: v.nullable(v.string()),
  total_duration_ms: v.number(),
  /** Present unless `debug_options.export_full_transcript` is false. */
  transcript: v.optional(v.string()),
});

const StepResultSchema = v.object({
  index: v.number(),
  name: v.string(),
  kind: v.picklist(['code', 'input', 'conversation']),
  lang: v.optional(v.string()),
  input: v.optional(v.string()),
  status: v.picklist(['completed', 'errored', 'skipped']),
  /** The agent's reply (a code step: its stdout). */
  response: v.string(),
  stdout: v.string(),
  stderr: v.string(),
  exit_code: v.nullable(v.number()),
  duration_ms: v.number(),
  conversation: v.optional(ConversationStepResultSchema),
  error: v.optional(v.string()),
});

const RunErrorSchema = v.object({
  /** `plugins`, `provider`, `setup`, `run[2]`, `run[0].conversation`, `evaluation`, `teardown`... */
  stage: v.string(),
  message: v.string(),
  /** A failure reason when the error has one (`SANDBOX_ERROR`, ...). */
  kind: v.optional(v.string()),
});

const RoleUsageSchema = v.object({
  calls: v.number(),
  input_tokens: v.number(),
  output_tokens: v.number(),
  total_tokens: v.number(),
  /** Wall time spent waiting for this role's LLM answers (absent in results of early versions). */
  llm_time_ms: v.optional(v.number(), 0),
  /** Set only when the provider reported a cost (or prices were configured). */
  cost_usd: v.optional(v.number()),
});

const ScenarioRunMetricsSchema = v.object({
  /** Wall time of the whole run, setup to teardown. */
  execution_time_ms: v.number(),
  llm_calls: v.number(),
  total_tokens: v.number(),
  per_role: v.object({ agent: RoleUsageSchema, simulator: RoleUsageSchema, judge: RoleUsageSchema }),
  service_calls: v.number(),
  mocked_calls: v.number(),
  conversation_turns: v.number(),
});

const TrajectoryEntrySchema = v.object({
  type: v.picklist(['thought', 'action', 'observation']),
  /** For actions and observations: `read_file`, `database.query`, `github-service.searchIssues`. */
  name: v.optional(v.string()),
  /** For actions: false when the action failed (it then does not count as executed). */
  success: v.optional(v.boolean()),
  content: v.string(),
  /** ISO 8601. */
  timestamp: v.string(),
  /** Run step (from 0) and conversation turn (from 1) it belongs to. */
  step: v.optional(v.number()),
  turn: v.optional(v.number()),
  details: v.optional(v.record(v.string(), v.unknown())),
});

const ServiceCallRecordSchema = v.object({
  service: v.string(),
  method: v.string(),
  args: v.array(v.unknown()),
  input: v.record(v.string(), v.unknown()),
  context: v.record(v.string(), v.unknown()),
  isMocked: v.boolean(),
  mockIndex: v.optional(v.number()),
  delayMs: v.optional(v.number()),
  isOk: v.boolean(),
  value: v.optional(v.unknown()),
  error: v.optional(v.object({ code: v.string(), message: v.string(), status: v.optional(v.number()) })),
  startedAt: v.string(),
  durationMs: v.number(),
});

/** `result.json` of one scenario run. */
export const ScenarioRunResultSchema = v.object({
  schema_version: v.literal(SCENARIO_RESULT_SCHEMA_VERSION),
  run_id: v.string(),
  /** `passed`: the judgment passed and nothing errored; `errored`: the run could not complete (never a pass). */
  status: v.picklist(['passed', 'failed', 'errored']),
  passed: v.boolean(),
  scenario: v.object({ name: v.string(), description: v.string(), file: v.string() }),
  parameters: v.object({
    seed: v.number(),
    is_live: v.boolean(),
    agent: v.string(),
    provider: v.string(),
    env_file: v.optional(v.string()),
    models: v.object({ agent: v.optional(v.string()), simulator: v.optional(v.string()), judge: v.optional(v.string()) }),
    /** Set for matrix runs. */
    matrix: v.optional(v.object({ combination: v.string(), parameters: v.record(v.string(), v.unknown()), repeat: v.number() })),
  }),
  started_at: v.string(),
  finished_at: v.string(),
  metrics: ScenarioRunMetricsSchema,
  final_response: v.string(),
  steps: v.array(StepResultSchema),
  evaluations: v.array(EvaluationRecordSchema),
  judgment: v.object({ strategy: v.string(), passed: v.boolean(), score: v.number(), reason: v.string() }),
  trajectory: v.array(TrajectoryEntrySchema),
  service_calls: v.optional(v.array(ServiceCallRecordSchema), []),
  /** The environment's files after the last step. */
  files: v.optional(v.record(v.string(), v.string()), {}),
  warnings: v.optional(v.array(v.string()), []),
  errors: v.optional(v.array(RunErrorSchema), []),
  /** Where the result was written, when it was. */
  result_file: v.optional(v.string()),
});
export type ScenarioRunResult = v.InferOutput<typeof ScenarioRunResultSchema>;
