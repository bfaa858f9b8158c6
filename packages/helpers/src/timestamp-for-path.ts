/**
 * `2025-01-31_12-00-05`, in UTC: sortable and safe in file names. The time part of every run folder
 * name (the harness's runs and benchmarks, the scenario runner's scenario and matrix results).
 */
export function timestampForPath(date: Date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
}
