import * as v from 'valibot';
import { NonEmptyStringSchema } from '../shared/primitives.js';

/** Longest `timeout_ms` an evaluation entry may ask for: one hour. */
export const MAX_EVALUATION_TIMEOUT_MS = 3_600_000;

/**
 * One evaluation entry. Only the common keys are checked here; every other key is a parameter of the
 * evaluator `type`, validated by the evaluators package (which can point at the line through `locate`).
 */
export const EvaluationSchema = v.looseObject({
  type: v.pipe(NonEmptyStringSchema, v.description('Evaluator type, e.g. string_contains, llm_judge, or a plugin evaluator.')),
  description: v.optional(v.string()),
  negate: v.optional(v.boolean()),
  weight: v.optional(v.pipe(v.number(), v.minValue(0))),
  timeout_ms: v.optional(
    v.pipe(
      v.number(),
      v.integer('expected an integer'),
      v.minValue(1),
      v.maxValue(MAX_EVALUATION_TIMEOUT_MS),
      v.description(
        'Milliseconds the evaluation may take; past it the evaluation is an error naming the evaluator and its plugin. Default 60000 for plugin evaluators; built-in evaluators have none (they bound their own waits).',
      ),
    ),
  ),
});
export type Evaluation = v.InferOutput<typeof EvaluationSchema>;
