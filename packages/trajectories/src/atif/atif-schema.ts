import * as v from 'valibot';

/**
 * The Agent Trajectory Interchange Format, version 1.6, as Harbor defines it: RFC 0001
 * (`docs/rfcs/0001-trajectory-format.md` of laude-institute/harbor) and its reference Pydantic models
 * (`harbor.models.trajectories`), whose rules this schema repeats: every object forbids unknown fields
 * (custom data goes in `extra`), `step_id`s run 1, 2, 3…, an observation's `source_call_id` names a
 * tool call of its own step, and `model_name`, `reasoning_effort`, `reasoning_content`, `tool_calls`
 * and `metrics` belong to agent steps only. Multimodal content parts (v1.6) are accepted, not written.
 */
export const ATIF_SCHEMA_VERSION = 'ATIF-v1.6';

const JsonObjectSchema = v.record(v.string(), v.unknown());
const IntegerSchema = v.pipe(v.number(), v.integer());

const ContentPartSchema = v.strictObject({
  type: v.picklist(['text', 'image']),
  text: v.nullish(v.string()),
  source: v.nullish(v.strictObject({ media_type: v.picklist(['image/jpeg', 'image/png', 'image/gif', 'image/webp']), path: v.string() })),
});
const ContentSchema = v.union([v.string(), v.array(ContentPartSchema)]);

const ToolCallSchema = v.strictObject({
  tool_call_id: v.string(),
  function_name: v.string(),
  arguments: JsonObjectSchema,
});

const ObservationSchema = v.strictObject({
  results: v.array(
    v.strictObject({
      source_call_id: v.nullish(v.string()),
      content: v.nullish(ContentSchema),
      subagent_trajectory_ref: v.nullish(v.array(v.strictObject({ session_id: v.string(), trajectory_path: v.nullish(v.string()), extra: v.nullish(JsonObjectSchema) }))),
    }),
  ),
});

const MetricsSchema = v.strictObject({
  prompt_tokens: v.nullish(IntegerSchema),
  completion_tokens: v.nullish(IntegerSchema),
  cached_tokens: v.nullish(IntegerSchema),
  cost_usd: v.nullish(v.number()),
  prompt_token_ids: v.nullish(v.array(IntegerSchema)),
  completion_token_ids: v.nullish(v.array(IntegerSchema)),
  logprobs: v.nullish(v.array(v.number())),
  extra: v.nullish(JsonObjectSchema),
});

const AGENT_ONLY_FIELDS = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'] as const;

const StepSchema = v.pipe(
  v.strictObject({
    step_id: v.pipe(IntegerSchema, v.minValue(1)),
    timestamp: v.nullish(v.pipe(v.string(), v.isoTimestamp())),
    source: v.picklist(['system', 'user', 'agent']),
    model_name: v.nullish(v.string()),
    reasoning_effort: v.nullish(v.union([v.string(), v.number()])),
    message: ContentSchema,
    reasoning_content: v.nullish(v.string()),
    tool_calls: v.nullish(v.array(ToolCallSchema)),
    observation: v.nullish(ObservationSchema),
    metrics: v.nullish(MetricsSchema),
    is_copied_context: v.nullish(v.boolean()),
    extra: v.nullish(JsonObjectSchema),
  }),
  v.check((step) => step.source === 'agent' || AGENT_ONLY_FIELDS.every((field) => step[field] === undefined || step[field] === null), 'model_name, reasoning_effort, reasoning_content, tool_calls and metrics are only applicable when source is "agent"'),
  v.check((step) => {
    const ids = new Set((step.tool_calls ?? []).map((call) => call.tool_call_id));
    return (step.observation?.results ?? []).every((result) => result.source_call_id === undefined || result.source_call_id === null || ids.has(result.source_call_id));
  }, "an observation result's source_call_id must name a tool call of its own step"),
);

export const AtifTrajectorySchema = v.pipe(
  v.strictObject({
    schema_version: v.picklist(['ATIF-v1.0', 'ATIF-v1.1', 'ATIF-v1.2', 'ATIF-v1.3', 'ATIF-v1.4', 'ATIF-v1.5', 'ATIF-v1.6']),
    session_id: v.string(),
    agent: v.strictObject({
      name: v.string(),
      version: v.string(),
      model_name: v.nullish(v.string()),
      tool_definitions: v.nullish(v.array(JsonObjectSchema)),
      extra: v.nullish(JsonObjectSchema),
    }),
    steps: v.pipe(v.array(StepSchema), v.minLength(1, 'a trajectory has at least one step')),
    notes: v.nullish(v.string()),
    final_metrics: v.nullish(
      v.strictObject({
        total_prompt_tokens: v.nullish(IntegerSchema),
        total_completion_tokens: v.nullish(IntegerSchema),
        total_cached_tokens: v.nullish(IntegerSchema),
        total_cost_usd: v.nullish(v.number()),
        total_steps: v.nullish(v.pipe(IntegerSchema, v.minValue(0))),
        extra: v.nullish(JsonObjectSchema),
      }),
    ),
    continued_trajectory_ref: v.nullish(v.string()),
    extra: v.nullish(JsonObjectSchema),
  }),
  v.check((trajectory) => trajectory.steps.every((step, index) => step.step_id === index + 1), 'step_id must run 1, 2, 3… in order'),
);
export type AtifTrajectory = v.InferOutput<typeof AtifTrajectorySchema>;
export type AtifStep = AtifTrajectory['steps'][number];

/** The problems of a would-be ATIF document, each as `path: message`; empty when it is valid. */
export function atifProblems(value: unknown): string[] {
  const result = v.safeParse(AtifTrajectorySchema, value);
  if (result.success) return [];
  return result.issues.map((issue) => `${issue.path?.map((item) => String(item.key)).join('.') || '(document)'}: ${issue.message}`);
}
