import * as v from 'valibot';
import { InputFileError } from '../errors/input-file-error.js';
import { readInputText } from '../loading/read-input-file.js';
import { showFieldPath } from '../loading/field-path.js';
import { showText } from '../shared/display-value.js';

type AnySchema = v.GenericSchema;
type AnyIssue = v.BaseIssue<unknown>;

/** The largest artifact file read whole (a scenario result keeps the environment's files; a run.json its plan). */
export const MAX_ARTIFACT_FILE_BYTES = 64 * 1024 * 1024;

export type ArtifactCheck<Output> = { success: true; output: Output } | { success: false; message: string };

// A union's first branch that failed deeper than its own type says more than "expected A | B".
function deepestIssue(issue: AnyIssue): AnyIssue {
  const deeper = issue.issues?.find((item) => (item.path?.length ?? 0) > (issue.path?.length ?? 0));
  return deeper === undefined ? issue : deepestIssue(deeper);
}

/** `field: expected X, found Y` (or the check's own message), for the first problem of a parse. */
export function describeArtifactIssue(issues: readonly AnyIssue[]): string {
  const first = issues[0];
  if (first === undefined) return 'invalid';
  const issue = deepestIssue(first);
  const segments = (issue.path ?? []).map((item) => item.key as string | number);
  const field = segments.length === 0 ? '(the whole file)' : showFieldPath(segments);
  if (issue.kind !== 'schema') return `${field}: ${issue.message}`;
  // A missing key's issue "expects" the key's own name: say the field is missing instead.
  if (issue.input === undefined) return `${field}: missing (the field is required)`;
  return `${field}: expected ${issue.expected ?? 'another value'}, found ${showText(issue.received, 80)}`;
}

/**
 * Checks a parsed artifact against its schema: the output (with defaults for fields older versions
 * did not write), or a message naming the artifact, the field, what was expected and what was found.
 */
export function checkArtifact<Schema extends AnySchema>(schema: Schema, value: unknown, expected: string): ArtifactCheck<v.InferOutput<Schema>> {
  const parsed = v.safeParse(schema, value);
  if (parsed.success) return { success: true, output: parsed.output };
  return { success: false, message: `not ${expected}: ${describeArtifactIssue(parsed.issues)}` };
}

/**
 * Reads one JSON artifact (run.json, result.json, bench-summary.json, ...) through its schema. A
 * missing, oversized or unreadable file, invalid JSON or a field the schema refuses throws an
 * `InputFileError` whose message names the file (and the field, expected and found).
 */
export async function readArtifactFile<Schema extends AnySchema>(file: string, schema: Schema, expected: string): Promise<v.InferOutput<Schema>> {
  const text = await readInputText(file, { maxBytes: MAX_ARTIFACT_FILE_BYTES });
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputFileError(file, { kind: 'not_json', message: `not valid JSON (${error instanceof Error ? error.message : String(error)}); expected ${expected}` });
  }
  const checked = checkArtifact(schema, value, expected);
  if (!checked.success) throw new InputFileError(file, { kind: 'invalid', message: checked.message });
  return checked.output;
}
