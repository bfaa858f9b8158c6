import { formatFieldPath, toValidationIssues, type FieldPathSegments, type Locate, type ValidationIssue } from '@agentbench/schemas';
import * as v from 'valibot';
import { isStandardSchema, isValibotShaped, type StandardSchemaV1 } from './standard-schema.js';

/** An evaluator's parameters as its schema parsed them, or the schema's issues. */
export type ParameterValidation = { isValid: true; value: unknown } | { isValid: false; issues: readonly StandardSchemaV1.Issue[] };

/**
 * Validates through `~standard.validate`, whatever library made the schema. Synchronous when the schema
 * is (valibot's are, unless they use async actions); a schema that throws is an issue at the top.
 */
export function validateParameters(schema: StandardSchemaV1, value: unknown): ParameterValidation | Promise<ParameterValidation> {
  let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    if (!isStandardSchema(schema)) {
      // A bare valibot-shaped object (`kind`, `~run`) without `~standard`, as plugins written by hand before had.
      const parsed = v.safeParse(schema as unknown as v.GenericSchema, value);
      // Valibot's issues are read by `parameterIssues` as valibot's (their paths are items with a `key`).
      return parsed.success ? { isValid: true, value: parsed.output } : { isValid: false, issues: parsed.issues as unknown as readonly StandardSchemaV1.Issue[] };
    }
    result = schema['~standard'].validate(value);
  } catch (error) {
    return thrownValidation(error);
  }
  return result instanceof Promise ? result.then(toValidation, thrownValidation) : toValidation(result);
}

function toValidation(result: StandardSchemaV1.Result<unknown>): ParameterValidation {
  return result.issues === undefined ? { isValid: true, value: result.value } : { isValid: false, issues: result.issues };
}

function thrownValidation(error: unknown): ParameterValidation {
  return { isValid: false, issues: [{ message: `the parameter schema failed: ${error instanceof Error ? error.message : String(error)}` }] };
}

export interface ParameterIssueOptions {
  file: string;
  locate: Locate;
}

/**
 * A schema's issues as validation issues (path relative to the entry). Valibot's keep their full
 * wording (expected and found values, the closest known key); other libraries' give their message
 * at their path.
 */
export function parameterIssues(issues: readonly StandardSchemaV1.Issue[], schema: StandardSchemaV1, options: ParameterIssueOptions): ValidationIssue[] {
  if (isValibotSchema(schema) && issues.every(isValibotIssue)) {
    return toValidationIssues(issues as unknown as readonly v.BaseIssue<unknown>[], { ...options, schema });
  }
  return issues.map((issue) => {
    const segments = pathSegments(issue);
    return { file: options.file, ...options.locate(segments), path: formatFieldPath(segments), message: issue.message, severity: 'error' as const };
  });
}

function pathSegments(issue: StandardSchemaV1.Issue): FieldPathSegments {
  return (issue.path ?? []).map((item) => {
    const key = typeof item === 'object' && item !== null ? item.key : item;
    return typeof key === 'number' ? key : String(key);
  });
}

function isValibotSchema(schema: StandardSchemaV1): schema is StandardSchemaV1 & v.GenericSchema {
  return isValibotShaped(schema) && (!isStandardSchema(schema) || schema['~standard'].vendor === 'valibot');
}

function isValibotIssue(issue: StandardSchemaV1.Issue): boolean {
  const record = issue as unknown as Record<string, unknown>;
  return typeof record.kind === 'string' && typeof record.type === 'string';
}
