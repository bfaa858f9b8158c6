/** The task labels a run or a suite validation skips unless told otherwise (`--include-flaky`). */
export const DEFAULT_SKIP_LABELS: readonly string[] = ['flaky'];
