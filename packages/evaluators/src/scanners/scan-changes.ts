import type { AgentEvent, Suspicion } from '@agentbench/schemas';
import { capText } from '../text/bounded-report.js';
import { runGuardedEvaluation } from '../guard/guarded-evaluation.js';
import { BUILTIN_SCANNERS } from './builtin-scanners.js';
import type { ScanInput, Scanner, SuspicionFinding } from './scanner.js';
import { parseUnifiedDiff, type DiffLimits } from './unified-diff.js';

/** Time one scanner may take before it is abandoned (and counted as a failed scan). */
export const DEFAULT_SCANNER_TIMEOUT_MS = 10_000;
/** Suspicions kept per attempt; a scan that finds more keeps the first ones and says so in one more. */
export const MAX_SUSPICIONS = 100;
const MAX_RULE_CHARACTERS = 100;
const MAX_FILE_CHARACTERS = 500;
const MAX_MESSAGE_CHARACTERS = 500;

/** The rule of the suspicion a scanner that threw, timed out or answered malformed findings raises: a scan that failed does not read as a clean one. */
export const SCANNER_FAILED_RULE = 'scanner-failed';

export interface ScanChangesOptions {
  /** The agent's diff as text (see ScanInput.patch). */
  patch: string;
  /** The agent loop's events, oldest first. Default: none. */
  events?: readonly AgentEvent[];
  /** Scanners of plugins, run after the built-in rules. */
  scanners?: readonly Scanner[];
  /** Run the built-in rules (default true). */
  hasBuiltinRules?: boolean;
  /** Per scanner. Default DEFAULT_SCANNER_TIMEOUT_MS. */
  timeoutMs?: number;
  diffLimits?: DiffLimits;
  signal?: AbortSignal;
}

/**
 * Reads an attempt's changes with the built-in rules and the plugins' scanners and returns their
 * suspicions, in scanner order. A plugin's scanner runs guarded (a time limit, `process.exit`
 * blocked); one that throws, times out or returns something other than a list of findings adds a
 * `scanner-failed` suspicion naming it, so a scan that did not happen never reads as a clean one.
 * Every text is cut to a bounded length and at most MAX_SUSPICIONS are kept.
 */
export async function scanChanges(options: ScanChangesOptions): Promise<Suspicion[]> {
  const parsed = parseUnifiedDiff(options.patch, options.diffLimits);
  const input: ScanInput = { patch: options.patch, files: parsed.files, isPatchTruncated: parsed.isTruncated, events: options.events ?? [], ...(options.signal === undefined ? {} : { signal: options.signal }) };
  const suspicions: Suspicion[] = [];
  if (options.hasBuiltinRules !== false) {
    for (const scanner of BUILTIN_SCANNERS) suspicions.push(...toSuspicions(scanner.name, scanner.scan(input) as readonly SuspicionFinding[]));
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_SCANNER_TIMEOUT_MS;
  for (const scanner of options.scanners ?? []) {
    const label = `scanner "${scanner.name}"`;
    const outcome = await runGuardedEvaluation(async (signal) => scanner.scan({ ...input, signal }), {
      label,
      timeoutMs,
      timeoutSource: 'the scanner time limit',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (outcome.kind === 'value' && Array.isArray(outcome.value)) {
      const problem = outcome.value.map(findingProblem).find((found) => found !== undefined);
      if (problem === undefined) {
        suspicions.push(...toSuspicions(scanner.name, outcome.value as readonly SuspicionFinding[]));
        continue;
      }
      suspicions.push(failed(scanner.name, `${label} returned a malformed finding: ${problem}`));
    } else if (outcome.kind === 'value') {
      suspicions.push(failed(scanner.name, `${label} returned ${outcome.value === null ? 'null' : typeof outcome.value}, not a list of findings`));
    } else if (outcome.kind === 'thrown') {
      suspicions.push(failed(scanner.name, `${label} threw: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`));
    } else suspicions.push(failed(scanner.name, outcome.message));
  }
  if (suspicions.length <= MAX_SUSPICIONS) return suspicions;
  const kept = suspicions.slice(0, MAX_SUSPICIONS - 1);
  const last = suspicions[MAX_SUSPICIONS - 1] as Suspicion;
  return [...kept, { ...last, message: `${capText(last.message, MAX_MESSAGE_CHARACTERS - 60)} (and ${suspicions.length - MAX_SUSPICIONS} more suspicions not kept)` }];
}

function toSuspicions(scanner: string, findings: readonly SuspicionFinding[]): Suspicion[] {
  return findings.map((finding) => ({
    rule: capText(finding.rule, MAX_RULE_CHARACTERS),
    scanner,
    file: capText(finding.file, MAX_FILE_CHARACTERS),
    line: finding.line ?? null,
    message: capText(finding.message, MAX_MESSAGE_CHARACTERS),
  }));
}

function failed(scanner: string, message: string): Suspicion {
  return { rule: SCANNER_FAILED_RULE, scanner, file: '', line: null, message: capText(message, MAX_MESSAGE_CHARACTERS) };
}

function findingProblem(value: unknown, index: number): string | undefined {
  if (typeof value !== 'object' || value === null) return `[${index}]: expected {rule, file, line, message}, found ${value === null ? 'null' : typeof value}`;
  const finding = value as Record<string, unknown>;
  for (const key of ['rule', 'file', 'message'] as const) {
    if (typeof finding[key] !== 'string' || (key !== 'file' && finding[key] === '')) return `[${index}].${key}: expected a${key === 'file' ? '' : ' non-empty'} string`;
  }
  const line = finding.line;
  if (line !== undefined && line !== null && !(typeof line === 'number' && Number.isInteger(line) && line >= 1)) return `[${index}].line: expected a line number >= 1 or null`;
  return undefined;
}
