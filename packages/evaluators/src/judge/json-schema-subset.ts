import { isRecord } from '@agentbench/helpers';
/**
 * The part of JSON Schema a judge answer can be held to, validated strictly and without a dependency:
 * `type` (one or a list), `enum`, `const`, `minimum`/`maximum`, `exclusiveMinimum`/`exclusiveMaximum`,
 * `minLength`/`maxLength`, `pattern`, `properties`, `required`, `additionalProperties`, `items`,
 * `minItems`/`maxItems`, plus the annotations `title`, `description`, `default`, `examples`, `$comment`.
 * Anything else is refused when the scenario is validated, so no keyword is silently ignored.
 */
export type JsonSchemaObject = Record<string, unknown>;

const JSON_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;
type JsonType = (typeof JSON_TYPES)[number];

const ASSERTION_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
]);
const ANNOTATION_KEYWORDS = new Set(['title', 'description', 'default', 'examples', '$comment']);

export const SUPPORTED_JSON_SCHEMA_KEYWORDS: readonly string[] = [...ASSERTION_KEYWORDS, ...ANNOTATION_KEYWORDS];

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;
}

function isNonNegativeInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** Problems with a schema itself (unsupported keyword, wrong keyword value), each starting with its path inside the schema. */
export function jsonSchemaProblems(schema: unknown, path = ''): string[] {
  const where = path === '' ? 'json_schema' : `json_schema.${path}`;
  if (!isRecord(schema)) return [`${where}: expected a schema object, found ${describeJson(schema)}`];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATION_KEYWORDS.has(key)) continue;
    if (!ASSERTION_KEYWORDS.has(key)) {
      problems.push(`${where}: keyword "${key}" is not supported (supported: ${[...ASSERTION_KEYWORDS].join(', ')})`);
      continue;
    }
    switch (key) {
      case 'type': {
        const types = Array.isArray(value) ? value : [value];
        if (types.length === 0 || !types.every((type) => (JSON_TYPES as readonly unknown[]).includes(type))) {
          problems.push(`${where}.type: expected one of ${JSON_TYPES.join(', ')} (or a list of them), found ${describeJson(value)}`);
        }
        break;
      }
      case 'enum':
        if (!Array.isArray(value) || value.length === 0) problems.push(`${where}.enum: expected a non-empty list, found ${describeJson(value)}`);
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof value !== 'number' || !Number.isFinite(value)) problems.push(`${where}.${key}: expected a number, found ${describeJson(value)}`);
        break;
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
        if (!isNonNegativeInteger(value)) problems.push(`${where}.${key}: expected an integer >= 0, found ${describeJson(value)}`);
        break;
      case 'pattern':
        if (typeof value !== 'string') problems.push(`${where}.pattern: expected a regular expression string, found ${describeJson(value)}`);
        else {
          try {
            new RegExp(value, 'u');
          } catch (error) {
            problems.push(`${where}.pattern: not a valid regular expression (${error instanceof Error ? error.message : String(error)})`);
          }
        }
        break;
      case 'properties':
        if (!isRecord(value)) problems.push(`${where}.properties: expected a mapping of property name to schema, found ${describeJson(value)}`);
        else for (const [name, child] of Object.entries(value)) problems.push(...jsonSchemaProblems(child, join(join(path, 'properties'), name)));
        break;
      case 'required':
        if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
          problems.push(`${where}.required: expected a list of property names, found ${describeJson(value)}`);
        } else if (isRecord(schema.properties)) {
          const properties = schema.properties;
          for (const name of value as string[]) {
            if (!(name in properties)) problems.push(`${where}.required: "${name}" is required but not listed in properties`);
          }
        }
        break;
      case 'additionalProperties':
        if (typeof value !== 'boolean') problems.push(...jsonSchemaProblems(value, join(path, 'additionalProperties')));
        break;
      case 'items':
        problems.push(...jsonSchemaProblems(value, join(path, 'items')));
        break;
      default:
        break;
    }
  }
  return problems;
}

function typeOf(value: unknown): JsonType | 'undefined' | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value as JsonType;
  if (typeof value === 'object') return 'object';
  if (value === undefined) return 'undefined';
  return 'other';
}

function matchesType(value: unknown, type: JsonType): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function deepEqual(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/**
 * Every way `value` breaks `schema`, as `path: expected X, found Y`. An empty list means valid.
 * The schema is assumed to have passed `jsonSchemaProblems`.
 */
export function jsonSchemaViolations(schema: JsonSchemaObject, value: unknown, path = ''): string[] {
  const where = path === '' ? '(answer)' : path;
  const violations: string[] = [];
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as JsonType[];
    if (!types.some((type) => matchesType(value, type))) {
      return [`${where}: expected ${types.join(' or ')}, found ${describeJson(value)}`];
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => deepEqual(option, value))) {
    violations.push(`${where}: expected one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}, found ${describeJson(value)}`);
  }
  if ('const' in schema && !deepEqual(schema.const, value)) {
    violations.push(`${where}: expected ${JSON.stringify(schema.const)}, found ${describeJson(value)}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) violations.push(`${where}: expected a number >= ${schema.minimum}, found ${value}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) violations.push(`${where}: expected a number <= ${schema.maximum}, found ${value}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) {
      violations.push(`${where}: expected a number > ${schema.exclusiveMinimum}, found ${value}`);
    }
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) {
      violations.push(`${where}: expected a number < ${schema.exclusiveMaximum}, found ${value}`);
    }
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) violations.push(`${where}: expected at least ${schema.minLength} characters, found ${length}`);
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) violations.push(`${where}: expected at most ${schema.maxLength} characters, found ${length}`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
      violations.push(`${where}: expected a string matching /${schema.pattern}/, found ${describeJson(value)}`);
    }
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) violations.push(`${where}: expected at least ${schema.minItems} items, found ${value.length}`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) violations.push(`${where}: expected at most ${schema.maxItems} items, found ${value.length}`);
    if (isRecord(schema.items)) {
      const items = schema.items;
      value.forEach((item, index) => violations.push(...jsonSchemaViolations(items, item, join(path, index))));
    }
  }
  if (isRecord(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const name of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
      if (!(name in value)) violations.push(`${join(path, name)}: required field is missing`);
    }
    for (const [name, child] of Object.entries(value)) {
      const propertySchema = properties[name];
      if (isRecord(propertySchema)) violations.push(...jsonSchemaViolations(propertySchema, child, join(path, name)));
      else if (schema.additionalProperties === false) violations.push(`${join(path, name)}: unexpected field (allowed: ${Object.keys(properties).join(', ') || 'none'})`);
      else if (isRecord(schema.additionalProperties)) violations.push(...jsonSchemaViolations(schema.additionalProperties, child, join(path, name)));
    }
  }
  return violations;
}

/**
 * The schema as sent to the model: objects get `additionalProperties: false` where unset (what OpenAI's
 * strict mode asks for, and what we validate against). `strict` is true only when every object also lists
 * all its properties as required, because strict mode rejects optional properties.
 */
export function prepareStrictSchema(schema: JsonSchemaObject): { schema: JsonSchemaObject; strict: boolean } {
  let strict = true;
  const visit = (node: JsonSchemaObject): JsonSchemaObject => {
    const copy: JsonSchemaObject = { ...node };
    if (isRecord(node.properties)) {
      const properties: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(node.properties)) properties[name] = isRecord(child) ? visit(child) : child;
      copy.properties = properties;
      const required = Array.isArray(node.required) ? (node.required as string[]) : [];
      if (Object.keys(properties).some((name) => !required.includes(name))) strict = false;
    }
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if ((types.includes('object') || isRecord(node.properties)) && node.additionalProperties === undefined) copy.additionalProperties = false;
    if (isRecord(node.additionalProperties)) {
      strict = false;
      copy.additionalProperties = visit(node.additionalProperties);
    }
    if (isRecord(node.items)) copy.items = visit(node.items);
    return copy;
  };
  return { schema: visit(schema), strict };
}
