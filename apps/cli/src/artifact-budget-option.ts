import { ArtifactBudget, formatRunDiskUse, measureDiskUse, parseByteSize } from '@agentbench/harness';
import { UsageError } from './usage-error.js';

/** `--artifact-budget`, on the commands that keep sandbox workspaces (run-task, run-agent, validate-suite). */
export const ARTIFACT_BUDGET_OPTION = {
  type: 'string' as const,
  describe: 'Disk the run may spend on kept workspaces, e.g. 500MB, 2GiB, 0 (never keep), unlimited (default 1GiB)',
};

/** The run's budget from the flag; a value that is not a size is a usage error naming the flag. */
export function artifactBudgetArgument(value: string | undefined): ArtifactBudget {
  if (value === undefined) return new ArtifactBudget();
  try {
    return new ArtifactBudget({ budgetBytes: parseByteSize(value) });
  } catch (error) {
    throw new UsageError(`--artifact-budget: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The end-of-run line: the run folder's disk use and what the budget kept. */
export async function runDiskUseLine(runDir: string, budget: ArtifactBudget): Promise<string> {
  return formatRunDiskUse({ runDir, diskUse: await measureDiskUse(runDir), budget });
}
