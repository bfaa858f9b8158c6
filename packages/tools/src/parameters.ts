import * as v from 'valibot';

/**
 * A JSON Schema object, as sent to a model for function calling: the tools' parameters, and the
 * scenario runner's service methods (their one home; the file formats' typed schemas are schemas' JsonSchemaDocument).
 */
export type JsonSchema = Record<string, unknown>;

/** JSON Schema of optional parameters, keyed by their valibot schema (the converter cannot see through our tolerant pipes). */
export const parameterJsonSchemas = new WeakMap<object, JsonSchema>();

const wholeNumberText = /^\s*-?\d+\s*$/;

/**
 * An optional whole-number parameter. Models often send numbers as strings ("10"), so a
 * numeric string is accepted too; the JSON Schema advertises a plain integer.
 */
export function optionalInteger(options: { description: string; minimum: number; maximum?: number; defaultValue?: number }) {
  const range = options.maximum === undefined ? `≥ ${options.minimum}` : `from ${options.minimum} to ${options.maximum}`;
  const expected = `expected a whole number ${range}`;
  const number = v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(wholeNumberText), v.transform(Number))], expected),
    v.integer(expected),
    v.minValue(options.minimum, expected),
    v.maxValue(options.maximum ?? Number.MAX_SAFE_INTEGER, expected),
  );
  const schema = options.defaultValue === undefined ? v.nullish(number) : v.nullish(number, options.defaultValue);
  const json: JsonSchema = { type: 'integer', minimum: options.minimum, description: options.description };
  if (options.maximum !== undefined) json['maximum'] = options.maximum;
  if (options.defaultValue !== undefined) json['default'] = options.defaultValue;
  parameterJsonSchemas.set(schema, json);
  return schema;
}

/** An optional boolean parameter; "true"/"false" strings are accepted too. */
export function optionalBoolean(options: { description: string; defaultValue: boolean }) {
  const expected = 'expected true or false';
  const boolean = v.union([v.boolean(), v.pipe(v.picklist(['true', 'false'], expected), v.transform((text) => text === 'true'))], expected);
  const schema = v.nullish(boolean, options.defaultValue);
  parameterJsonSchemas.set(schema, { type: 'boolean', description: options.description, default: options.defaultValue });
  return schema;
}

/** An optional string parameter. */
export function optionalString(options: { description: string; defaultValue?: string }) {
  const text = v.string('expected a string');
  const schema = options.defaultValue === undefined ? v.nullish(text) : v.nullish(text, options.defaultValue);
  const json: JsonSchema = { type: 'string', description: options.description };
  if (options.defaultValue !== undefined) json['default'] = options.defaultValue;
  parameterJsonSchemas.set(schema, json);
  return schema;
}

/** A required, non-empty string parameter. */
export function requiredString(options: { description: string }) {
  return v.pipe(v.string('expected a string'), v.nonEmpty('expected a non-empty string'), v.description(options.description));
}

/** Readable messages for invalid parameters: `start_line: expected a whole number ≥ 1, found "abc"`. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => {
    const path = v.getDotPath(issue) ?? '(params)';
    if (issue.received === 'undefined') return `${path}: missing (a required parameter)`;
    const found = issue.message.includes('found') ? '' : `, found ${issue.received}`;
    return `${path}: ${issue.message}${found}`;
  });
}
