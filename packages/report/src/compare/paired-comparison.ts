import { compareRuns } from './compare-runs.js';
import { ReportError } from '../errors/report-error.js';
import type { RunComparison } from './run-comparison.js';

/** What a report of exactly two run folders says of B (the second) against A (the first): the comparison, or why there is none. */
export type PairedComparison = { comparison: RunComparison } | { unavailableReason: string };

/**
 * `ab report A B`: the same comparison `ab compare A B` makes, so the report carries the two
 * trajectories side by side. Undefined for any other number of folders (no A and B to pair). Two
 * runs that cannot be paired (no task in common, a folder the comparison cannot read) still get
 * their report, with a line saying why.
 */
export async function comparePairOfRuns(runDirs: readonly string[]): Promise<PairedComparison | undefined> {
  if (runDirs.length !== 2) return undefined;
  const [folderA, folderB] = runDirs as [string, string];
  try {
    return { comparison: await compareRuns(folderA, folderB) };
  } catch (error) {
    if (ReportError.isInstance(error)) return { unavailableReason: error.message };
    throw error;
  }
}
