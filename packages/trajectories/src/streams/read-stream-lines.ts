import { TrajectoryError } from '../errors/trajectory-error.js';
import { STREAM_LIMITS } from './stream-limits.js';

export interface StreamRecord {
  /** 1-based line in the stream. */
  line: number;
  value: Record<string, unknown>;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses a stream past the size cap, before any parsing. */
export function checkStreamSize(text: string, source: string): void {
  if (text.length > STREAM_LIMITS.streamCharacters) {
    throw new TrajectoryError(source, null, `the stream has ${text.length} characters, more than the ${STREAM_LIMITS.streamCharacters} read`);
  }
}

/**
 * The JSON objects of a JSONL stream, one per non-blank line. A line that is not a JSON object, or is
 * longer than the cap, fails naming its line: an agent's stream is data we check, never trust.
 */
export function readStreamLines(text: string, source: string): StreamRecord[] {
  checkStreamSize(text, source);
  const records: StreamRecord[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const raw = lines[index]!.trim();
    if (raw === '') continue;
    const line = index + 1;
    if (raw.length > STREAM_LIMITS.lineCharacters) {
      throw new TrajectoryError(source, line, `the line has ${raw.length} characters, more than the ${STREAM_LIMITS.lineCharacters} read`);
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new TrajectoryError(source, line, `not JSON (${(error as Error).message}); expected one JSON event per line`);
    }
    if (!isRecord(value)) throw new TrajectoryError(source, line, `expected a JSON object, found ${Array.isArray(value) ? 'an array' : typeof value}`);
    records.push({ line, value });
  }
  return records;
}

/** A field that must be a string when present. */
export function optionalString(record: Record<string, unknown>, field: string, source: string, line: number): string | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new TrajectoryError(source, line, `${field}: expected a string, found ${typeof value}`);
  return value;
}

/** A field that must be a string. */
export function requiredString(record: Record<string, unknown>, field: string, source: string, line: number): string {
  const value = optionalString(record, field, source, line);
  if (value === undefined) throw new TrajectoryError(source, line, `${field}: expected a string, found nothing`);
  return value;
}

/** A field that must be an object. */
export function requiredRecord(record: Record<string, unknown>, field: string, source: string, line: number): Record<string, unknown> {
  const value = record[field];
  if (!isRecord(value)) throw new TrajectoryError(source, line, `${field}: expected an object, found ${value === undefined ? 'nothing' : Array.isArray(value) ? 'an array' : typeof value}`);
  return value;
}

/** A non-negative whole number, or undefined when absent or not one. */
export function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
