import type { LlmToolDefinition } from '../contract/llm-types.js';

/** A definition in OpenAI's function-calling shape, as `@agentbench/tools` exports them. */
export interface FunctionToolDefinitionLike {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** Converts function-calling definitions (e.g. `createToolSet(...).definitions()`) to the client's neutral shape. */
export function toLlmToolDefinitions(definitions: readonly (FunctionToolDefinitionLike | LlmToolDefinition)[]): LlmToolDefinition[] {
  return definitions.map((definition) =>
    'function' in definition
      ? { name: definition.function.name, description: definition.function.description ?? '', parameters: definition.function.parameters ?? { type: 'object', properties: {} } }
      : definition,
  );
}
