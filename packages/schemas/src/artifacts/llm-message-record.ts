import * as v from 'valibot';

/** A line of `llm_messages.jsonl`: one request body, answer or error of an agent's LLM calls, try by try. */
export const LlmMessageRecordSchema = v.object({
  run_id: v.string(),
  step: v.nullable(v.number()),
  attempt: v.number(),
  direction: v.picklist(['request', 'response', 'error']),
  api: v.string(),
  model: v.string(),
  /** The request or answer body as the API took or gave it (strings truncated by the log settings). */
  body: v.optional(v.unknown()),
  error: v.optional(v.object({ kind: v.string(), message: v.string(), status: v.optional(v.number()), will_retry: v.boolean(), delay_ms: v.optional(v.number()) })),
});
export type LlmMessageRecord = v.InferOutput<typeof LlmMessageRecordSchema>;
