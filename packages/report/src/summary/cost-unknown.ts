import type { ReportRow } from '../model/report-model.js';

/**
 * Models whose attempts report no cost: the provider sent none and no price was configured for
 * them, so their cost is unknown, never $0 (a reported zero stays a zero). Attempts without a
 * model (the scripted agent, baselines) call no LLM and are not listed.
 */
export function costUnknownModels(rows: readonly ReportRow[]): string[] {
  return [...new Set(rows.filter((row) => row.model !== null && row.costUsd === null).map((row) => row.model as string))].sort();
}

/** `cost unknown: no price for model X` (or `for models X, Y`); empty when every cost is known. */
export function costUnknownText(models: readonly string[]): string {
  if (models.length === 0) return '';
  return `cost unknown: no price for model${models.length === 1 ? '' : 's'} ${models.join(', ')}`;
}
