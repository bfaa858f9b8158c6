import { toJsonSchema, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { MatrixSchema } from '../matrix/matrix-schema.js';
import { ScenarioSchema } from '../scenario/scenario-schema.js';
import { TaskSchema } from '../task/task-schema.js';

/**
 * The JSON Schema (draft-07, typed) of one of our file formats, for editors. Named apart from the
 * loose `JsonSchema` object of @agentbench/tools (function-calling parameters, service methods).
 */
export type JsonSchemaDocument = JsonSchema;

/** Base of the `$id`s; the CLI can write the schemas next to the files and point `$schema` comments at them. */
export const JSON_SCHEMA_BASE_URL = 'https://agentbench.dev/schemas';

// Checks written as functions (regex compiles, cross-field rules) have no JSON Schema form: they are kept
// out of the output (the loader still enforces them) instead of failing the conversion.
const UNCONVERTIBLE_ACTIONS = new Set(['check', 'raw_check', 'custom', 'partial_check', 'forward', 'transform', 'raw_transform']);

const conversionConfig: ConversionConfig = {
  target: 'draft-07',
  // Describe what people write (defaults included), not what the loader returns.
  typeMode: 'input',
  overrideAction: ({ valibotAction, jsonSchema }) => (UNCONVERTIBLE_ACTIONS.has(valibotAction.type) ? jsonSchema : undefined),
};

function convert(schema: v.GenericSchema, options: { id: string; title: string; description: string }): JsonSchemaDocument {
  const converted = toJsonSchema(schema, conversionConfig);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${JSON_SCHEMA_BASE_URL}/${options.id}`,
    ...converted,
    title: options.title,
    description: options.description,
  } as JsonSchemaDocument;
}

/** JSON Schema (draft-07) of task.yaml, for `# yaml-language-server: $schema=...` and editors. */
export function taskJsonSchema(): JsonSchemaDocument {
  return convert(TaskSchema, {
    id: 'task-1.0.json',
    title: 'AgentBench task (task.yaml, spec 1.0)',
    description: 'A repository at a commit, its setup and test command, and the baseline expectations. Regexes must compile as JavaScript RegExp and harness_min_version must not exceed the harness (checked by `ab validate`).',
  });
}

/** JSON Schema (draft-07) of *.scenario.yaml. */
export function scenarioJsonSchema(): JsonSchemaDocument {
  return convert(ScenarioSchema, {
    id: 'scenario.json',
    title: 'AgentBench scenario (*.scenario.yaml)',
    description: 'Environment, setup (mocks, virtual files, database), run steps with evaluations or conversations, and the judgment. Evaluator parameters are checked by `ab validate`, not here.',
  });
}

/** JSON Schema (draft-07) of *.matrix.yaml. */
export function matrixJsonSchema(): JsonSchemaDocument {
  return convert(MatrixSchema, {
    id: 'matrix.json',
    title: 'AgentBench scenario matrix (*.matrix.yaml)',
    description: 'Runs a base scenario over every combination of parameter values.',
  });
}
