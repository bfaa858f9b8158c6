/** Number formatting shared by the text renderers. */

export function formatPercent(value: number | null, digits = 1): string {
  return value === null ? '–' : `${(value * 100).toFixed(digits)}%`;
}

export function formatNumber(value: number | null, digits = 1): string {
  if (value === null) return '–';
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

export function formatCost(value: number | null): string {
  return value === null ? '–' : `$${value < 0.01 && value > 0 ? value.toFixed(4) : value.toFixed(2)}`;
}

export function formatSeconds(value: number | null): string {
  if (value === null) return '–';
  if (value < 1) return `${Math.round(value * 1000)} ms`;
  if (value < 60) return `${value.toFixed(value < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(value / 60);
  return `${minutes} min ${Math.round(value - minutes * 60)} s`;
}

/**
 * `3 errored, not counted; conservative 40.0%`: the attempts left out of the pass rate (every try
 * failed on infrastructure) and the rate counting them as failures. Empty when none was left out.
 */
export function formatErroredNotCounted(group: { erroredNotCounted: number; conservativePassRate: { rate: number | null } }, digits = 1): string {
  if (group.erroredNotCounted === 0) return '';
  return `${group.erroredNotCounted} errored, not counted; conservative ${formatPercent(group.conservativePassRate.rate, digits)}`;
}
