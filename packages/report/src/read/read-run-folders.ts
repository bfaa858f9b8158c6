import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AttemptRecordSchema, checkArtifact, formatSuspicion, isAttemptDetails, MatrixSummarySchema, RunRecordSchema, SuiteValiditySchema, type AttemptRecord } from '@agentbench/schemas';
import { RunFolderError } from '../errors/run-folder-error.js';
import { REPORT_MODEL_VERSION, type ReadProblem, type ReportModel, type ReportRow, type ReportSource } from '../model/report-model.js';
import { findArtifactFiles } from './find-artifact-files.js';
import { DEFAULT_PREVIEW_LIMITS, scaledPreviewLimits, type PreviewLimits } from './preview-limits.js';
import { locateAttemptFiles, readAttemptDetail } from './read-attempt-detail.js';
import { problemReporter, readJsonFile, readJsonLines } from './read-jsonl.js';
import { scenarioResultRow } from './read-scenario-result.js';
import { statusOf } from './row-status.js';
import { costUnknownText } from '../summary/cost-unknown.js';
import { taskValidityText } from '../summary/attempt-counts.js';
import { isFile, isRecord } from '@agentbench/helpers';

export interface ReadRunFoldersOptions {
  /** Preview limits before scaling by the number of rows (see `scaledPreviewLimits`). */
  limits?: Partial<PreviewLimits>;
  /** Clock for `generatedAt`. */
  now?: () => Date;
}

type RowPlan =
  | { kind: 'attempt'; record: AttemptRecord; base: string; runFolder?: string; file: string; earlierTries?: AttemptRecord[] }
  | { kind: 'events'; eventsFile: string }
  | { kind: 'scenario'; file: string };

interface SourcePlan {
  source: ReportSource;
  rows: RowPlan[];
}

function attemptKey(record: AttemptRecord): string {
  return `${record.run_id}\u0000${record.task_id}\u0000${record.timestamp_start}`;
}

/**
 * `ab run` writes every try of an attempt; only its last try counts, so the earlier ones are not
 * rows: they go to the last try's `earlierTries` (shown as retried).
 */
function dropSupersededTries(rows: RowPlan[]): void {
  const lastTry = new Map<string, Extract<RowPlan, { kind: 'attempt' }>>();
  const keyOf = (record: AttemptRecord): string => `${record.attempt_id ?? ''}\u0000${record.task_id}`;
  for (const plan of rows) {
    if (plan.kind !== 'attempt' || plan.record.attempt_id === undefined) continue;
    const last = lastTry.get(keyOf(plan.record));
    if (last === undefined || (plan.record.try ?? 1) > (last.record.try ?? 1)) lastTry.set(keyOf(plan.record), plan);
  }
  if (lastTry.size === 0) return;
  const kept = rows.filter((plan) => {
    if (plan.kind !== 'attempt' || plan.record.attempt_id === undefined) return true;
    const last = lastTry.get(keyOf(plan.record));
    if (last === plan) return true;
    if (last !== undefined) (last.earlierTries ??= []).push(plan.record);
    return false;
  });
  for (const plan of lastTry.values()) plan.earlierTries?.sort((left, right) => (left.try ?? 1) - (right.try ?? 1));
  rows.splice(0, rows.length, ...kept);
}

/** `validity.json` beside a suite run's run.json (written with `--oracle-runs`); optional. */
async function readValidity(file: string, source: ReportSource, problems: ReadProblem[]): Promise<void> {
  if (!(await isFile(file))) return;
  const value = await readJsonFile(file, problems);
  if (value === undefined) return;
  const checked = checkArtifact(SuiteValiditySchema, value, 'a valid validity record');
  if (checked.success) source.validity = checked.output;
  else problems.push({ file, message: `${checked.message}; skipped` });
}

async function planSource(dir: string, sourceId: string, problems: ReadProblem[]): Promise<SourcePlan> {
  const files = await findArtifactFiles(dir);
  const rows: RowPlan[] = [];
  const recordFolders = new Set<string>();
  // Asked once per folder: an attempts.jsonl of 10,000 records shares one folder.
  const hasEventsByFolder = new Map<string, Promise<boolean>>();
  const hasEventsIn = (folder: string): Promise<boolean> => {
    let answer = hasEventsByFolder.get(folder);
    if (answer === undefined) {
      answer = isFile(path.join(folder, 'events.jsonl'));
      hasEventsByFolder.set(folder, answer);
    }
    return answer;
  };
  const plansByKey = new Map<string, Extract<RowPlan, { kind: 'attempt' }>>();
  // The attempt's own folder: the one holding the record (attempt.json, or beside its events), else
  // where its record's `events` path points (an `ab run` folder's attempts.jsonl names its tries' files).
  const ownFolderOf = async (record: AttemptRecord, file: string): Promise<string | undefined> => {
    const folder = path.dirname(file);
    if (path.basename(file) === 'attempt.json' || (await hasEventsIn(folder))) return folder;
    const events = record.artifact_paths['events'];
    if (events === undefined) return undefined;
    const eventsFolder = path.dirname(path.resolve(folder, events));
    return (await hasEventsIn(eventsFolder)) ? eventsFolder : undefined;
  };
  const addRecord = async (record: AttemptRecord, file: string): Promise<void> => {
    const key = attemptKey(record);
    const ownFolder = await ownFolderOf(record, file);
    if (ownFolder !== undefined) recordFolders.add(ownFolder);
    const known = plansByKey.get(key);
    if (known !== undefined) {
      // The same record again (an `ab run` try's attempt.json after the run's attempts.jsonl): one
      // row, read from the copy in the attempt's own folder, whose paths are relative to it.
      if (known.runFolder === undefined && ownFolder === path.dirname(file)) {
        known.record = record;
        known.base = ownFolder;
        known.runFolder = ownFolder;
        known.file = file;
      }
      return;
    }
    const plan: Extract<RowPlan, { kind: 'attempt' }> = { kind: 'attempt', record, base: path.dirname(file), file };
    if (ownFolder !== undefined) plan.runFolder = ownFolder;
    plansByKey.set(key, plan);
    rows.push(plan);
  };

  for (const file of files.attemptLists) {
    const lines = (await readJsonLines(file, problems)) ?? [];
    const reporter = problemReporter(file, problems);
    for (const { value, line } of lines) {
      const checked = checkArtifact(AttemptRecordSchema, value, 'a valid attempt record');
      if (checked.success) await addRecord(checked.output, file);
      else reporter.add(line, `${checked.message}; skipped`);
    }
    reporter.finish();
  }
  for (const file of files.attemptFiles) {
    const value = await readJsonFile(file, problems);
    if (value === undefined) continue;
    // The harness also writes logs/<task>/attempt.json: its per-task details, read through the record's artifact_paths.
    if (isAttemptDetails(value)) continue;
    const checked = checkArtifact(AttemptRecordSchema, value, 'a valid attempt record');
    if (checked.success) await addRecord(checked.output, file);
    else problems.push({ file, message: `${checked.message}; skipped` });
  }
  // An agent run cut off before its record was written still has its events.
  for (const file of files.eventLogs) {
    if (!recordFolders.has(path.dirname(file))) rows.push({ kind: 'events', eventsFile: file });
  }
  for (const file of files.scenarioResults) rows.push({ kind: 'scenario', file });
  dropSupersededTries(rows);

  const source: ReportSource = { id: sourceId, label: path.basename(dir), dir, run: null, matrix: null, rowCount: 0 };
  // The run.json closest to the top describes the folder as a whole.
  const runFile = [...files.runRecords].sort((left, right) => left.split(path.sep).length - right.split(path.sep).length)[0];
  if (runFile !== undefined) {
    const value = await readJsonFile(runFile, problems);
    if (value !== undefined) {
      const checked = checkArtifact(RunRecordSchema, value, 'a valid run record');
      if (checked.success) {
        const run = checked.output;
        source.run = { runId: run.run_id, kind: run.kind, status: run.status, createdAt: run.created_at, finishedAt: run.finished_at ?? null, suite: run.suite ?? null };
      } else {
        problems.push({ file: runFile, message: `${checked.message}; its attempts are still read` });
      }
    }
    await readValidity(path.join(path.dirname(runFile), 'validity.json'), source, problems);
  }
  const summaryFile = files.matrixSummaries[0];
  if (summaryFile !== undefined) {
    const value = await readJsonFile(summaryFile, problems);
    if (value !== undefined) {
      const checked = checkArtifact(MatrixSummarySchema, value, 'a matrix summary');
      // Its top-level figures (name, seed, runs per combination, ...); the runs themselves are rows.
      if (checked.success) source.matrix = Object.fromEntries(Object.entries(checked.output).filter(([, item]) => item === null || typeof item !== 'object'));
      else problems.push({ file: summaryFile, message: `${checked.message}; skipped` });
    }
  }
  return { source, rows };
}

async function buildRow(plan: RowPlan, id: string, sourceId: string, limits: PreviewLimits, problems: ReadProblem[]): Promise<ReportRow | undefined> {
  if (plan.kind === 'scenario') return scenarioResultRow(plan.file, { id, sourceId, limits, problems });
  if (plan.kind === 'events') {
    const folder = path.dirname(plan.eventsFile);
    const files = await locateAttemptFiles({}, folder, folder);
    const { detail, summary } = await readAttemptDetail(files, limits, problems);
    if (summary === undefined) return undefined;
    const finished = summary.finished;
    const passed = finished?.passed === true;
    const failureReason = passed ? null : (finished?.failure_reason ?? 'UNKNOWN');
    const extras = (finished ?? {}) as Record<string, unknown>;
    if (finished === undefined) detail.errors.push(`${plan.eventsFile} has no run_finished event: the run was cut off`);
    const numberOf = (value: unknown): number | null => (typeof value === 'number' ? value : null);
    return {
      id,
      sourceId,
      kind: 'attempt',
      taskId: summary.taskId ?? path.basename(path.dirname(folder)),
      suite: null,
      model: summary.models[0] ?? null,
      variant: summary.variant ?? null,
      status: statusOf(passed, failureReason),
      passed,
      failureReason,
      stopReason: finished?.stop_reason ?? null,
      durationSec: finished?.duration_sec ?? null,
      steps: finished?.steps ?? null,
      inputTokens: numberOf(extras.input_tokens),
      outputTokens: numberOf(extras.output_tokens),
      costUsd: numberOf(extras.cost_usd),
      startedAt: summary.startedAt ?? null,
      combination: null,
      folder,
      detail,
    };
  }
  const { record } = plan;
  const files = await locateAttemptFiles(record.artifact_paths, plan.base, plan.runFolder);
  const { detail } = await readAttemptDetail(files, limits, problems);
  const retried = (plan.earlierTries ?? []).map((earlier) => ({ try: earlier.try ?? 1, failureReason: earlier.result.failure_reason ?? null, failureClass: earlier.failure_class ?? null }));
  for (const earlier of retried) detail.notes.push(`try ${earlier.try}: ${earlier.failureReason ?? 'failed'} (${earlier.failureClass ?? 'unclassified'}), retried`);
  if (record.not_started !== undefined) detail.errors.push(`not started: ${record.not_started.message}`);
  const validityNote = taskValidityText(record.task_validity);
  if (validityNote !== undefined) detail.notes.push(validityNote);
  for (const suspicion of record.suspicions ?? []) detail.notes.push(`suspicion: ${formatSuspicion(suspicion)}`);
  const failureReason = record.result.passed ? null : (record.result.failure_reason ?? null);
  const verdictBasis = record.result.verdict_basis;
  if (verdictBasis === 'exit_code') detail.notes.push(WEAKER_VERDICT_NOTE);
  return {
    id,
    sourceId,
    kind: 'attempt',
    taskId: record.task_id,
    suite: record.suite,
    model: record.model?.name ?? null,
    variant: record.variant ?? null,
    status: record.errored === true ? 'errored' : statusOf(record.result.passed, failureReason, record.failure_class),
    passed: record.result.passed,
    ...(record.errored === true ? { isErroredNotCounted: true } : {}),
    ...(record.not_started === undefined ? {} : { notStarted: record.not_started.reason }),
    ...(record.task_validity === undefined
      ? {}
      : { taskValidity: { status: record.task_validity.status, ...(record.task_validity.reason === undefined ? {} : { reason: record.task_validity.reason }), isCounted: record.task_validity.counted } }),
    failureReason,
    ...(verdictBasis === undefined ? {} : { verdictBasis }),
    stopReason: record.result.stop_reason ?? null,
    durationSec: record.duration_sec,
    steps: record.metrics?.steps ?? null,
    inputTokens: record.metrics?.input_tokens ?? null,
    outputTokens: record.metrics?.output_tokens ?? null,
    costUsd: record.metrics?.cost_usd ?? null,
    startedAt: record.timestamp_start,
    combination: null,
    ...(record.backend === undefined ? {} : { backend: record.backend }),
    ...(record.runtime === undefined ? {} : { runtime: record.runtime }),
    folder: files.runFolder ?? files.logsFolder ?? null,
    ...(retried.length === 0 ? {} : { retriedTries: retried }),
    ...(record.suspicions === undefined ? {} : { suspicions: record.suspicions }),
    detail,
  };
}

/** The note of an attempt whose verdict is the test command's exit code. */
export const WEAKER_VERDICT_NOTE = 'verdict from the exit code only: the task names no tests (validation.expected_failing_tests), so a test process that exits 0 passes (a weaker verdict)';

function uniqueLabels(sources: ReportSource[]): void {
  const counts = new Map<string, number>();
  for (const source of sources) {
    const count = (counts.get(source.label) ?? 0) + 1;
    counts.set(source.label, count);
    if (count > 1) source.label = `${source.label} (${count})`;
  }
}

/**
 * Reads run folders into one report model, from their files alone: suite runs (`run.json`,
 * `attempts.jsonl`, `logs/<task>/`), agent runs (`attempt.json`, `events.jsonl`,
 * `llm_messages.jsonl`, `diffs/`, `logs/`), scenario runs (`result.json`) and matrix runs
 * (`summary.json` beside their scenario results), found anywhere under each folder. A missing
 * optional file is fine; a malformed line or file is listed in `problems` (file and line) and
 * skipped. Throws only when a folder does not exist or holds nothing a report can show.
 */
export async function readRunFolders(folders: readonly string[], options: ReadRunFoldersOptions = {}): Promise<ReportModel> {
  if (folders.length === 0) throw new RunFolderError('(none)', 'name at least one run folder');
  const problems: ReadProblem[] = [];
  const plans: SourcePlan[] = [];
  for (const [index, folder] of folders.entries()) {
    const dir = path.resolve(folder);
    const info = await stat(dir).catch(() => undefined);
    if (info === undefined) throw new RunFolderError(folder, 'no such folder');
    // A result.json or attempts.jsonl given directly stands for its folder.
    const root = info.isDirectory() ? dir : path.dirname(dir);
    const plan = await planSource(root, `source-${index + 1}`, problems);
    if (plan.rows.length === 0) {
      throw new RunFolderError(
        folder,
        'no attempts or scenario results found (expected attempts.jsonl, attempt.json, events.jsonl or result.json somewhere inside)',
      );
    }
    plans.push(plan);
  }
  const rowCount = plans.reduce((sum, plan) => sum + plan.rows.length, 0);
  const limits = scaledPreviewLimits(rowCount, { ...DEFAULT_PREVIEW_LIMITS, ...options.limits });
  const rows: ReportRow[] = [];
  for (const plan of plans) {
    const sourceRows: ReportRow[] = [];
    for (const rowPlan of plan.rows) {
      const row = await buildRow(rowPlan, `${plan.source.id}-row-${sourceRows.length + 1}`, plan.source.id, limits, problems);
      if (row === undefined) continue;
      // Unknown, not $0: the row's detail says why its cost is `–`.
      if (row.model !== null && row.costUsd === null) row.detail.notes.push(costUnknownText([row.model]));
      sourceRows.push(row);
    }
    sourceRows.sort((left, right) => (left.startedAt ?? '').localeCompare(right.startedAt ?? '') || left.taskId.localeCompare(right.taskId));
    sourceRows.forEach((row, index) => {
      row.id = `${plan.source.id}-row-${index + 1}`;
    });
    plan.source.rowCount = sourceRows.length;
    rows.push(...sourceRows);
  }
  const sources = plans.map((plan) => plan.source);
  uniqueLabels(sources);
  return { version: REPORT_MODEL_VERSION, generatedAt: (options.now ?? (() => new Date()))().toISOString(), sources, rows, problems };
}
