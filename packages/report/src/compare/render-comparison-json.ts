import type { RunComparison } from './run-comparison.js';

/** `ab compare --format json`: the comparison model as it is (`version` says its layout). */
export function renderComparisonJson(comparison: RunComparison): string {
  return `${JSON.stringify(comparison, null, 2)}\n`;
}
