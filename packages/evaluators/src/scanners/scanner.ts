import type { AgentEvent } from '@agentbench/schemas';
import { PluginDefinitionError } from '../errors/plugin-definition-error.js';
import type { DiffFile } from './unified-diff.js';

/** What a scanner reads: the agent's diff, as git wrote it on the host and parsed, and the agent's trajectory. */
export interface ScanInput {
  /** The agent's diff since setup (`git diff-tree -p --binary`), as text. Written by the agent's code: data, never to run. */
  patch: string;
  /** The same diff parsed: one entry per file, with the lines each hunk adds, keeps and removes. */
  files: readonly DiffFile[];
  /** The diff was longer than the scan reads: `files` ends early. */
  isPatchTruncated: boolean;
  /** The agent loop's events (`events.jsonl`), oldest first: tool calls with their parameters, test runs, model calls. Empty when the agent left none. */
  events: readonly AgentEvent[];
  /** Aborted when the scan's time is up or the attempt stops. */
  signal?: AbortSignal;
}

/**
 * One thing a scanner found: the rule it breaks, where (`file` relative to the repository, or
 * `events.jsonl` for the trajectory; `line` 1-based, or null for the file as a whole), and one
 * sentence a reader can check by looking there.
 */
export interface SuspicionFinding {
  rule: string;
  file: string;
  line?: number | null;
  message: string;
}

/** A scanner: reads an attempt's changes and returns its suspicions (none: an empty list). */
export interface Scanner {
  /** Kebab-case name, shown with each suspicion (`pytest-env-override`); must not clash with a built-in rule. */
  name: string;
  description?: string;
  scan(input: ScanInput): readonly SuspicionFinding[] | Promise<readonly SuspicionFinding[]>;
}

const SCANNER_NAME_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** The problem with a scanner's shape, or undefined when it is valid. */
export function scannerShapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `expected a scanner object {name, scan}, found ${value === null ? 'null' : typeof value}`;
  const record = value as Record<string, unknown>;
  if (typeof record.name !== 'string' || !SCANNER_NAME_PATTERN.test(record.name)) {
    return `name: expected a kebab-case name such as "pytest-env-override" (lower-case letters, digits, "-"), found ${JSON.stringify(record.name)}`;
  }
  if (typeof record.scan !== 'function') return `${record.name}: scan: expected a function (input) => suspicions`;
  if (record.description !== undefined && typeof record.description !== 'string') return `${record.name}: description: expected a string`;
  return undefined;
}

/** Defines a scanner (a plugin lists it in `definePlugin({ scanners: [...] })`). Throws on a malformed definition. */
export function defineScanner(definition: Scanner): Scanner {
  const problem = scannerShapeProblem(definition);
  if (problem !== undefined) throw new PluginDefinitionError(`defineScanner: ${problem}`);
  return Object.freeze({ ...definition });
}
