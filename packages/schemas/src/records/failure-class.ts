import * as v from 'valibot';

/** Who caused a failure; the taxonomy (which reason is which class) lives in @agentbench/scoring. Values are written to disk. */
export const FAILURE_CLASS_VALUES = ['infra', 'task', 'agent'] as const;
export const FailureClassSchema = v.picklist(FAILURE_CLASS_VALUES);
export type FailureClassValue = v.InferOutput<typeof FailureClassSchema>;
