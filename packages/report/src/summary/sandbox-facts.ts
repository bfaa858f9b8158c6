import type { ReportModel, ReportSource } from '../model/report-model.js';

/**
 * What a run folder's attempts ran in, from their records: `backend docker, runtime runsc` (several
 * combinations joined with `; `, each with its count when they differ). Empty when no record says
 * (records from before the fields, scenario runs).
 */
export function sandboxFactsOf(model: ReportModel, source: ReportSource): string {
  const counts = new Map<string, number>();
  for (const row of model.rows) {
    if (row.sourceId !== source.id || (row.backend === undefined && row.runtime === undefined)) continue;
    const runtime = row.runtime === undefined ? 'not recorded' : (row.runtime ?? 'none');
    const text = `backend ${row.backend ?? 'not recorded'}, runtime ${runtime}`;
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  if (counts.size <= 1) return [...counts.keys()].join('');
  return [...counts].map(([text, count]) => `${text} (${count} attempt${count === 1 ? '' : 's'})`).join('; ');
}
