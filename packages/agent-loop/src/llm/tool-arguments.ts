import { TOOL_NAMES, type ToolName } from '@agentbench/schemas';
import type { LlmToolCall, LlmToolDefinition } from '../contract/llm-types.js';

export type ParsedToolCall =
  | { isValid: true; call: LlmToolCall; tool: ToolName; params: Record<string, unknown> }
  | { isValid: false; call: LlmToolCall; problem: string };

const TOOL_NAME_SET = new Set<string>(TOOL_NAMES);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, expected: unknown): boolean {
  const types = Array.isArray(expected) ? expected : [expected];
  if (types.length === 0 || types.some((type) => typeof type !== 'string')) return true;
  const actual = typeOf(value);
  return types.some(
    (type) =>
      type === actual ||
      (type === 'number' && actual === 'integer') ||
      // The tools accept numeric and boolean strings ("10", "true"), as models often send them.
      (type === 'integer' && actual === 'string' && /^\s*-?\d+\s*$/.test(value as string)) ||
      (type === 'boolean' && (value === 'true' || value === 'false')) ||
      (actual === 'null' && type !== 'object'),
  );
}

/**
 * Checks the arguments against the tool's JSON Schema, shallowly (required properties, their
 * types, unknown properties when `additionalProperties` is false): enough to catch what models
 * get wrong before a call is made, so the model can correct it in the same turn.
 */
export function schemaProblems(params: Record<string, unknown>, schema: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const properties = typeof schema['properties'] === 'object' && schema['properties'] !== null ? (schema['properties'] as Record<string, Record<string, unknown>>) : {};
  const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
  for (const name of required) {
    if (typeof name === 'string' && (params[name] === undefined || params[name] === null)) problems.push(`${name}: missing (required)`);
  }
  for (const [name, value] of Object.entries(params)) {
    const property = properties[name];
    if (property === undefined) {
      if (schema['additionalProperties'] === false) problems.push(`${name}: unknown parameter; expected one of ${Object.keys(properties).join(', ')}`);
      continue;
    }
    if (value !== undefined && !matchesType(value, property['type'])) {
      problems.push(`${name}: expected ${JSON.stringify(property['type'])}, found ${typeOf(value)}`);
    }
  }
  return problems;
}

/** Parses one tool call of a reply: known tool, arguments that are a JSON object and fit the tool's schema. */
export function parseToolCall(call: LlmToolCall, definitions: readonly LlmToolDefinition[]): ParsedToolCall {
  const known = definitions.length > 0 ? definitions.map((definition) => definition.name) : [...TOOL_NAMES];
  if (!TOOL_NAME_SET.has(call.name) || !known.includes(call.name)) {
    return { isValid: false, call, problem: `unknown tool "${call.name}"; the tools are ${known.join(', ')}` };
  }
  const text = call.arguments.trim();
  let params: unknown;
  if (text === '') params = {};
  else {
    try {
      params = JSON.parse(text);
    } catch (error) {
      const preview = text.length > 200 ? `${text.slice(0, 200)}…` : text;
      return { isValid: false, call, problem: `the arguments are not valid JSON (${(error as Error).message}): ${preview}` };
    }
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return { isValid: false, call, problem: `the arguments must be a JSON object, found ${typeOf(params)}` };
  }
  const definition = definitions.find((candidate) => candidate.name === call.name);
  const problems = definition === undefined ? [] : schemaProblems(params as Record<string, unknown>, definition.parameters);
  if (problems.length > 0) return { isValid: false, call, problem: `invalid arguments for ${call.name}: ${problems.join('; ')}` };
  return { isValid: true, call, tool: call.name as ToolName, params: params as Record<string, unknown> };
}
