import type { EvaluationContext } from './context/evaluation-context.js';
import { PluginDefinitionError } from './errors/plugin-definition-error.js';
import { isStandardSchema, isValibotShaped, type StandardSchemaV1 } from './parameters/standard-schema.js';

/**
 * Any Standard Schema v1 for an evaluator's parameters: a valibot schema (usually a `strictObject`;
 * the built-ins use valibot), or zod, arktype or a hand-written `~standard` object.
 */
export type ParameterSchema = StandardSchemaV1<unknown, unknown>;

/** What an evaluator returns. `score` is 0..1 (default: 1 for success, 0 for failure). */
export interface EvaluationResult {
  success: boolean;
  message: string;
  score?: number;
  details?: unknown;
}

/**
 * An evaluator type. The registry validates the parameters with `params` before a run starts and
 * calls `evaluate` with the parsed output (defaults applied). The common keys of an evaluation entry
 * (`type`, `description`, `negate`, `weight`) are not part of the parameters.
 */
export interface Evaluator<Schema extends ParameterSchema = ParameterSchema> {
  readonly type: string;
  /** One line for listings and the README. */
  readonly description?: string;
  readonly params: Schema;
  /** The evaluator reads `context.conversation`; placing it on a step without a conversation is a validation error. */
  readonly requiresConversation?: boolean;
  evaluate(params: StandardSchemaV1.InferOutput<Schema>, context: EvaluationContext): Promise<EvaluationResult>;
}

const EVALUATOR_TYPE_PATTERN = /^[a-z][a-z0-9_]*(?:[.:/-][a-z0-9_]+)*$/;

/** Checks the shape of an evaluator; used by `defineEvaluator`, the registry and the plugin loader. */
export function evaluatorShapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `expected an evaluator object {type, params, evaluate}, found ${typeof value}`;
  const record = value as Record<string, unknown>;
  if (typeof record.type !== 'string' || !EVALUATOR_TYPE_PATTERN.test(record.type)) {
    return `type: expected a lower-case name such as "word_count" (letters, digits, "_"), found ${JSON.stringify(record.type)}`;
  }
  const params = record.params;
  // Valibot-shaped objects without `~standard` (hand-written by plugins before Standard Schema) still work.
  if (!isStandardSchema(params) && !isValibotShaped(params)) {
    return `${record.type}: params: expected a Standard Schema (a valibot schema such as v.strictObject({...}), a zod or arktype schema, or an object with \`~standard.validate\`), found ${params === undefined ? 'nothing' : params === null ? 'null' : typeof params}`;
  }
  if (typeof record.evaluate !== 'function') return `${record.type}: evaluate: expected a function (params, context) => Promise<result>`;
  if (record.description !== undefined && typeof record.description !== 'string') return `${record.type}: description: expected a string`;
  return undefined;
}

/** Defines an evaluator with its parameter types inferred from the schema. Throws on a malformed definition. */
export function defineEvaluator<Schema extends ParameterSchema>(definition: Evaluator<Schema>): Evaluator<Schema> {
  const problem = evaluatorShapeProblem(definition);
  if (problem !== undefined) throw new PluginDefinitionError(`defineEvaluator: ${problem}`);
  return Object.freeze({ ...definition });
}
