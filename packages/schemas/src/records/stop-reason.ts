import * as v from 'valibot';

/** Why the agent loop stopped. Values are stable: they are written to disk. */
export const STOP_REASONS = [
  'SUCCESS',
  'MAX_STEPS',
  'MAX_TIME',
  'MAX_TOKENS',
  'MAX_COST',
  'AGENT_GAVE_UP',
  'REPEATED_FAILURE',
  'TOOL_ERROR',
  'LLM_ERROR',
  'INTERRUPTED',
] as const;

export const StopReasonSchema = v.picklist(STOP_REASONS);
export type StopReason = v.InferOutput<typeof StopReasonSchema>;
