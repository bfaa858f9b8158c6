import type * as v from 'valibot';
import { showFieldPath } from './field-path.js';
import type { ValidationIssue } from '../errors/validation-issue.js';
import type { Locate } from './yaml-source.js';
import { closestName } from '../shared/closest-name.js';
import { MAX_SHOWN_VALUE_CHARACTERS, showText, showValue } from '../shared/display-value.js';

type AnyIssue = v.BaseIssue<unknown>;
type AnySchema = v.BaseSchema<unknown, unknown, AnyIssue>;

export interface ValibotIssueOptions {
  file: string;
  locate: Locate;
  /** The schema that produced the issues; used to list the allowed keys of an unknown-key error. */
  schema?: AnySchema;
}

/** Most issues converted from one validation; a list of 20,000 wrong items gives one more issue saying how many were left. */
export const MAX_CONVERTED_ISSUES = 100;

/**
 * Turns valibot issues into positioned, readable issues: `expected X, found Y` at the field's line. At most
 * `MAX_CONVERTED_ISSUES`, then one issue (at the next one's place) counting the rest.
 */
export function toValidationIssues(issues: readonly AnyIssue[], options: ValibotIssueOptions): ValidationIssue[] {
  const result: ValidationIssue[] = [];
  for (const [index, issue] of issues.entries()) {
    if (result.length >= MAX_CONVERTED_ISSUES) {
      const rest = issues.length - index;
      const [next] = toValidationIssues([issue], options);
      if (next !== undefined) result.push({ ...next, message: `${rest.toLocaleString('en-US')} more ${rest === 1 ? 'problem' : 'problems'} from here on, not listed (fix the ones above first)`, severity: 'error' });
      break;
    }
    collect(issue, [], options, result);
  }
  return result;
}

function issueSegments(issue: AnyIssue): (string | number)[] {
  return (issue.path ?? []).map((item) => item.key as string | number);
}

function collect(issue: AnyIssue, prefix: (string | number)[], options: ValibotIssueOptions, result: ValidationIssue[]): void {
  const segments = [...prefix, ...issueSegments(issue)];
  if ((issue.type === 'union' || issue.type === 'variant') && issue.issues) {
    // Keep the options that matched the input's type and failed deeper; the others only say "not a string".
    const deeper = issue.issues.filter((subIssue) => !(subIssue.kind === 'schema' && subIssue.path === undefined && subIssue.received === issue.received));
    if (deeper.length > 0) {
      for (const subIssue of deeper) collect(subIssue, segments, options, result);
      return;
    }
  }
  result.push(convert(issue, segments, options));
}

function convert(issue: AnyIssue, segments: (string | number)[], options: ValibotIssueOptions): ValidationIssue {
  const lastItem = issue.path?.[issue.path.length - 1];
  const isKeyIssue = lastItem?.origin === 'key';
  // A path through a long key (an unknown field, a `virtual_fs` name) is shown bounded too.
  const path = showFieldPath(segments);
  const base = { file: options.file, path, severity: 'error' as const };

  if (isKeyIssue && issue.kind === 'schema' && issue.received === 'undefined' && issue.expected !== 'never') {
    return { ...base, ...options.locate(segments.slice(0, -1)), message: 'required field is missing', expected: 'a value', received: 'nothing' };
  }
  if (isKeyIssue && issue.expected === 'never') {
    const key = String(segments[segments.length - 1]);
    const allowed = options.schema ? allowedKeys(options.schema, segments.slice(0, -1)) : undefined;
    let message = `unknown field ${showValue(key)}`;
    if (allowed && allowed.length > 0) {
      // A long key is no typo of a short name (and comparing it would cost its length times theirs).
      const suggestion = key.length > MAX_SHOWN_VALUE_CHARACTERS ? undefined : closestName(key, allowed);
      message += suggestion ? ` (did you mean "${suggestion}"?)` : ` (expected one of: ${allowed.join(', ')})`;
    }
    return { ...base, ...options.locate(segments, { target: 'key' }), message, expected: allowed?.join(' | ') ?? 'a known field', received: showValue(key) };
  }

  const position = options.locate(segments, isKeyIssue ? { target: 'key' } : undefined);
  const received = describeReceived(issue);
  const expected = issue.expected === null ? undefined : describeExpected(issue);
  let message: string;
  if (isDefaultMessage(issue)) {
    message = `expected ${expected ?? describeRequirement(issue)}, found ${received}`;
  } else {
    // A check over a whole object (cross-field rules) has no single value to show.
    const isObjectCheck = (issue.type === 'check' || issue.type === 'raw_check') && typeof issue.input === 'object' && issue.input !== null;
    message = /\bfound\b/.test(issue.message) || isObjectCheck ? issue.message : `${issue.message}, found ${received}`;
  }
  // YAML reads 1.0 or 1234567 as numbers; say how to keep them strings.
  const expectsString = issue.expected === 'string' || /^\(?"/.test(issue.expected ?? '');
  if (expectsString && /^-?[\d.]+(e[+-]?\d+)?$/i.test(issue.received)) message += ' (quote the value in YAML to keep it a string)';
  return { ...base, ...position, message, ...(expected === undefined ? {} : { expected }), received };
}

// valibot's own messages all start with "Invalid"; ours start with "expected".
function isDefaultMessage(issue: AnyIssue): boolean {
  return issue.message.startsWith('Invalid ');
}

// valibot's `received` holds a string input whole and unescaped; show it bounded.
function describeReceived(issue: AnyIssue): string {
  if (typeof issue.input === 'string') return showValue(issue.input);
  if (issue.received === 'Object') return 'a mapping';
  if (issue.received === 'Array') return 'a list';
  return showText(issue.received);
}

function describeExpected(issue: AnyIssue): string {
  const expected = issue.expected ?? '';
  if (issue.type === 'min_length' || issue.type === 'max_length' || issue.type === 'length') return `length ${expected}`;
  if (issue.type === 'non_empty') return 'a non-empty value';
  return expected
    .replace(/^\((.*)\)$/, '$1')
    .replaceAll('Object', 'a mapping')
    .replaceAll('Array', 'a list');
}

function describeRequirement(issue: AnyIssue): string {
  if (issue.type === 'integer') return 'an integer';
  return `a valid value (${issue.type.replaceAll('_', ' ')})`;
}

// Walks a schema along a path to find the object schema there, unwrapping optional, pipes, unions and arrays.
function allowedKeys(schema: AnySchema, segments: (string | number)[]): string[] | undefined {
  let candidates: AnySchema[] = [schema];
  for (const segment of segments) {
    const next: AnySchema[] = [];
    for (const candidate of candidates.flatMap(unwrap)) {
      const record = candidate as unknown as Record<string, unknown>;
      if (typeof segment === 'number' && record.item) next.push(record.item as AnySchema);
      else if (typeof segment === 'string' && record.entries && segment in (record.entries as object)) {
        next.push((record.entries as Record<string, AnySchema>)[segment] as AnySchema);
      } else if (typeof segment === 'string' && record.type === 'record' && record.value) next.push(record.value as AnySchema);
    }
    candidates = next;
  }
  const objects = candidates.flatMap(unwrap).filter((candidate) => 'entries' in candidate);
  if (objects.length === 0) return undefined;
  return [...new Set(objects.flatMap((candidate) => Object.keys((candidate as unknown as { entries: object }).entries)))];
}

function unwrap(schema: AnySchema): AnySchema[] {
  const record = schema as unknown as Record<string, unknown>;
  if (record.wrapped) return unwrap(record.wrapped as AnySchema);
  if (Array.isArray(record.options) && record.options.every((option) => typeof option === 'object')) {
    return (record.options as AnySchema[]).flatMap(unwrap);
  }
  return [schema];
}
