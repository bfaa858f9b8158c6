import type { ReportRow } from '../model/report-model.js';

/**
 * What a pass rate is taken over: of the attempts, those that ran (all but the errored ones left
 * out of pass rates), and of those the ones counted (all but the attempts of unverified tasks).
 */
export interface AttemptCounts {
  attempts: number;
  /** Attempts with a verdict: all but the errored ones left out of pass rates. */
  ran: number;
  /** Attempts the pass rate is taken over: those that ran, less the unverified tasks' left out. */
  counted: number;
  /** Passes among the counted attempts. */
  countedPassed: number;
  /** Errored attempts left out of pass rates, per reason (`no script`, `SANDBOX_ERROR`). */
  erroredByReason: Record<string, number>;
  /** Attempts that ran on a task whose baseline was not shown to fail, left out of pass rates. */
  unverifiedNotCounted: number;
  /** The unverified tasks left out, each once: `toy_pass_pytest (BASELINE_NOT_FAILING)`. */
  unverifiedTasks: string[];
  /** Attempts of tasks never validated (counted). */
  unvalidated: number;
}

/** True when the row is left out of pass rates: errored, or an attempt of an unverified task not included. */
export function isLeftOutOfPassRate(row: ReportRow): boolean {
  return row.isErroredNotCounted === true || row.taskValidity?.isCounted === false;
}

export function countAttempts(rows: readonly ReportRow[]): AttemptCounts {
  const erroredByReason: Record<string, number> = {};
  for (const row of rows) {
    if (row.isErroredNotCounted !== true) continue;
    const reason = row.notStarted ?? row.failureReason ?? 'unknown';
    erroredByReason[reason] = (erroredByReason[reason] ?? 0) + 1;
  }
  const ran = rows.filter((row) => row.isErroredNotCounted !== true);
  const counted = ran.filter((row) => !isLeftOutOfPassRate(row));
  return {
    attempts: rows.length,
    ran: ran.length,
    counted: counted.length,
    countedPassed: counted.filter((row) => row.passed).length,
    erroredByReason,
    unverifiedNotCounted: ran.length - counted.length,
    unverifiedTasks: [...new Set(ran.filter(isLeftOutOfPassRate).map((row) => `${row.taskId}${row.taskValidity?.reason === undefined ? '' : ` (${row.taskValidity.reason})`}`))],
    unvalidated: rows.filter((row) => row.taskValidity?.status === 'unvalidated').length,
  };
}

/**
 * The counts in one line, saying what the pass rate is taken over:
 * `2/5 ran; 2/2 passed; 3 errored: no script` (then `; 1 unverified task, not counted`, `; 2 unvalidated`),
 * or `2/5 passed` when every attempt counts.
 */
export function formatAttemptCounts(counts: AttemptCounts): string {
  const errored = Object.entries(counts.erroredByReason).sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]));
  const erroredCount = errored.reduce((sum, [, count]) => sum + count, 0);
  // `2/5 passed` alone when every attempt counts; what is left out is always said.
  const parts = [...(counts.counted === counts.attempts ? [] : [`${counts.ran}/${counts.attempts} ran`]), `${counts.countedPassed}/${counts.counted} passed`];
  if (erroredCount > 0) parts.push(`${erroredCount} errored: ${errored.length === 1 ? errored[0]?.[0] : errored.map(([reason, count]) => `${reason} ${count}`).join(', ')}`);
  if (counts.unverifiedNotCounted > 0) parts.push(`${counts.unverifiedNotCounted} unverified task${counts.unverifiedNotCounted === 1 ? '' : 's'}, not counted`);
  if (counts.unvalidated > 0) parts.push(`${counts.unvalidated} unvalidated`);
  return parts.join('; ');
}

/** The short mark of a row whose task is not known valid: `unverified task`, `unvalidated task`. */
export function taskValidityMark(validity: { status: string } | undefined): string | undefined {
  return validity === undefined || validity.status === 'valid' ? undefined : `${validity.status} task`;
}

/** How a row's task validity is explained in every report: `unverified task (BASELINE_NOT_FAILING), not counted`, `unvalidated task`; nothing for a valid one. */
export function taskValidityText(validity: { status: string; reason?: string; counted?: boolean; isCounted?: boolean } | undefined): string | undefined {
  if (validity === undefined || validity.status === 'valid') return undefined;
  if (validity.status === 'unvalidated') return 'unvalidated task (never validated: ab validate-suite, or ab run --validate-baseline)';
  const isCounted = validity.isCounted ?? validity.counted ?? false;
  return `unverified task${validity.reason === undefined ? '' : ` (${validity.reason})`}: its baseline was not shown to fail; ${isCounted ? 'counted (--include-unvalidated)' : 'not counted in pass rates'}`;
}
