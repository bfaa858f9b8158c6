import * as v from 'valibot';
import { SEMVER_PATTERN } from './semver.js';

/** Letters, digits, `_`, `.` and `-`, starting with a letter, digit or `_`: safe in file names and artifact paths. */
export const SAFE_IDENTIFIER_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

export const SafeIdentifierSchema = v.pipe(
  v.string(),
  v.regex(SAFE_IDENTIFIER_PATTERN, 'expected an identifier of letters, digits, "_", "." and "-" (at most 128, not starting with "." or "-")'),
);

export const NonEmptyStringSchema = v.pipe(v.string(), v.nonEmpty('expected a non-empty string'));

export const PositiveIntegerSchema = v.pipe(v.number(), v.integer('expected an integer'), v.minValue(1));

export const NonNegativeIntegerSchema = v.pipe(v.number(), v.integer('expected an integer'), v.minValue(0));

export const AbsolutePosixPathSchema = v.pipe(
  v.string(),
  v.startsWith('/', 'expected an absolute path starting with "/"'),
);

export const SemverSchema = v.pipe(v.string(), v.regex(SEMVER_PATTERN, 'expected a semantic version like "0.1.0"'));

/** ISO 8601 date-time with a time zone, as written by `Date.prototype.toISOString()` or Python's `isoformat()`. */
export const IsoTimestampSchema = v.pipe(v.string(), v.isoTimestamp('expected an ISO 8601 timestamp like "2025-01-31T12:00:00.000Z"'));

/** True when `source` compiles as a JavaScript regular expression. */
export function isValidRegex(source: string): boolean {
  return regexError(source) === undefined;
}

/** The compiler's complaint about `source`, or undefined when it compiles. */
export function regexError(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A string that must compile as a JavaScript RegExp. The JSON Schema output marks it `format: "regex"`. */
export const RegexSourceSchema = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = regexError(dataset.value);
    if (problem !== undefined) addIssue({ message: `expected a valid JavaScript regular expression (${problem})` });
  }),
  v.metadata({ format: 'regex' }),
);

/** A relative path that stays inside its base folder (no absolute path, no `..` segment). */
export const RelativeInnerPathSchema = v.pipe(
  v.string(),
  v.nonEmpty('expected a non-empty relative path'),
  v.check((path) => !path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path), 'expected a relative path, found an absolute one'),
  v.check((path) => !path.split(/[\\/]/).includes('..'), 'expected a path that stays inside its folder (no ".." segment)'),
);

/** `schema` with a description, which the JSON Schema output (`taskJsonSchema`, ...) shows editors. */
export function described<Schema extends v.GenericSchema>(schema: Schema, description: string) {
  return v.pipe(schema, v.description(description));
}
