import type { ValidationIssue } from '../errors/validation-issue.js';

/** The outcome of validating one file: `success` is false when any issue is an error. Warnings come with both. */
export type ValidationResult<TValue> =
  | { success: true; value: TValue; issues: ValidationIssue[] }
  | { success: false; value?: undefined; issues: ValidationIssue[] };
