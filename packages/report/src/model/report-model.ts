import type { SuiteValidity, Suspicion } from '@agentbench/schemas';

/**
 * The normalised report: every run folder's attempts and scenario runs as rows, with what the
 * page shows of each. Built from files on disk only (see `readRunFolders`); every renderer reads it.
 * Paths are absolute; renderers turn them into links.
 */

export const REPORT_MODEL_VERSION = 1;

export type RowKind = 'attempt' | 'scenario';
/** `errored`: the run could not complete (a crash, an infrastructure failure), as opposed to a verdict of fail. */
export type RowStatus = 'passed' | 'failed' | 'errored';

/** The start (and end) of a text that may be cut, with the file it comes from. */
export interface TextPreview {
  text: string;
  isTruncated: boolean;
  /** Length of the whole text (characters, or bytes when read from a file). */
  totalLength: number;
  /** Absolute file holding the whole text, when there is one. */
  file?: string;
}

export interface FileLink {
  label: string;
  /** Absolute path. */
  file: string;
}

export type TimelineKind = 'tool' | 'llm' | 'tests' | 'patch' | 'stage' | 'stop' | 'thought' | 'action' | 'observation' | 'note';

/** One thing that happened during an attempt, in order. */
export interface TimelineEntry {
  kind: TimelineKind;
  step: number | null;
  title: string;
  at?: string;
  durationSec?: number | null;
  isError?: boolean;
  /** A tool call's arguments, a command. */
  input?: TextPreview;
  /** A tool's output, an LLM's answer, a log's start. */
  output?: TextPreview;
  links: FileLink[];
}

export interface DiffView {
  label: string;
  diff: TextPreview;
}

export interface ConversationTurnView {
  turn: number;
  user: string;
  agent: string;
  durationMs?: number;
  error?: string;
}

export interface EvaluationView {
  phase?: string;
  turn?: number;
  type: string;
  description?: string;
  success: boolean;
  message: string;
  score?: number;
  error?: string;
  /** An LLM judge's reasoning, when its details carry one. */
  reasoning?: string;
  /** The evaluator's details (a judge's full answer...). */
  details?: TextPreview;
}

export interface JudgmentView {
  strategy: string;
  passed: boolean;
  score: number;
  reason: string;
}

export interface LogView {
  label: string;
  /** Absent for logs only linked, not previewed. */
  preview?: TextPreview;
  file: string;
}

export interface RowDetail {
  /** One line: why the attempt ended as it did. */
  message?: string;
  timeline: TimelineEntry[];
  /** Entries left out to keep the page small (the events file has them all). */
  omittedTimelineEntries: number;
  diffs: DiffView[];
  conversation: ConversationTurnView[];
  evaluations: EvaluationView[];
  judgment?: JudgmentView;
  finalResponse?: TextPreview;
  logs: LogView[];
  /** What went wrong (errors, mismatches, warnings). */
  errors: string[];
  /** Facts worth a line (a conversation's termination reason, failing tests). */
  notes: string[];
}

export interface ReportRow {
  /** Unique in the report. */
  id: string;
  sourceId: string;
  kind: RowKind;
  /** Task id, or scenario name. */
  taskId: string;
  suite: string | null;
  model: string | null;
  variant: string | null;
  status: RowStatus;
  passed: boolean;
  /**
   * Every try of the attempt failed on infrastructure (an `ab run` record with `errored: true`):
   * left out of the pass rate and pass@k, shown as "N errored, not counted".
   */
  isErroredNotCounted?: boolean;
  /** The attempt could not start (an `ab run` record's `not_started`): why, in a few words (`no script`). */
  notStarted?: string;
  /**
   * What `ab run` knew of the task's validity (its record's `task_validity`). An unverified task (its
   * baseline not shown to fail) with `isCounted: false` is left out of pass rates, marked `unverified task`.
   */
  taskValidity?: { status: 'valid' | 'unverified' | 'unvalidated'; reason?: string; isCounted: boolean };
  /** Earlier tries of an `ab run` attempt (failed on infrastructure, or interrupted), retried: the row is the last try. */
  retriedTries?: Array<{ try: number; failureReason: string | null; failureClass: string | null }>;
  /** What the scanners flagged in an agent attempt's changes (absent when it was not scanned; a pass may have some). */
  suspicions?: Suspicion[];
  /** A FailureReason for attempts; `EVALUATIONS_FAILED` / `RUN_ERRORED` (or the error's FailureReason) for scenario runs. */
  failureReason: string | null;
  /**
   * What decided an agent attempt's verdict (the record's `verdict_basis`): `exit_code` is the weaker
   * one (the task names no tests), marked in the reports. Absent for other rows and older records.
   */
  verdictBasis?: 'named_tests' | 'exit_code';
  stopReason: string | null;
  durationSec: number | null;
  steps: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  startedAt: string | null;
  /** Matrix combination and repeat, for scenario runs of a matrix. */
  combination: string | null;
  /** The sandbox backend (`docker`, `bwrap`, `local`) and OCI runtime (`runc`, `runsc`) of the attempt, when its record names them. */
  backend?: string;
  runtime?: string | null;
  /** The attempt's artifact folder (absolute), when it has one of its own. */
  folder: string | null;
  detail: RowDetail;
}

export interface ReportSource {
  id: string;
  /** The folder's name, made unique among the sources. */
  label: string;
  /** Absolute RUN_DIR. */
  dir: string;
  /** What run.json says, when there is one. */
  run: {
    runId: string;
    kind: string;
    status: string;
    createdAt: string;
    finishedAt: string | null;
    suite: string | null;
  } | null;
  /** A matrix summary.json's top-level fields, when there is one. */
  matrix: Record<string, unknown> | null;
  /** A suite run's `validity.json` (`ab validate-suite --oracle-runs N`), when there is one. */
  validity?: SuiteValidity;
  rowCount: number;
}

/** A file or line the reader skipped, with where and why. */
export interface ReadProblem {
  file: string;
  line?: number;
  message: string;
}

export interface ReportModel {
  version: typeof REPORT_MODEL_VERSION;
  generatedAt: string;
  sources: ReportSource[];
  rows: ReportRow[];
  problems: ReadProblem[];
}

export function emptyDetail(): RowDetail {
  return { timeline: [], omittedTimelineEntries: 0, diffs: [], conversation: [], evaluations: [], logs: [], errors: [], notes: [] };
}

/** `FILE:LINE: message`. */
export function formatReadProblem(problem: ReadProblem): string {
  return `${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.message}`;
}
