import { formatSuspicion } from '@agentbench/schemas';
import type { ReportModel, ReportRow } from '../model/report-model.js';

/** One suspicion of one row, for the reports' suspicion tables. */
export interface SuspicionLine {
  row: ReportRow;
  /** `rule at file:line: message`. */
  text: string;
}

/**
 * Every suspicion of the model's rows, passed attempts first: a pass with suspicions is the case a
 * reader must see (a failure is looked at anyway). At most `limit` lines; `total` counts them all.
 */
export function suspicionLines(model: ReportModel, limit: number): { lines: SuspicionLine[]; total: number; rows: number } {
  const rows = model.rows.filter((row) => (row.suspicions ?? []).length > 0).sort((left, right) => Number(right.passed) - Number(left.passed));
  const all = rows.flatMap((row) => (row.suspicions ?? []).map((suspicion) => ({ row, text: formatSuspicion(suspicion) })));
  return { lines: all.slice(0, limit), total: all.length, rows: rows.length };
}
