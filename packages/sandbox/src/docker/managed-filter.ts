/** Which of our labelled containers and images a listing or a sweep takes (`ab cleanup`, `ab doctor`). */
export interface ManagedContainerFilter {
  runId?: string;
  taskId?: string;
  /** Only the sandboxes this SandboxPool started. */
  poolId?: string;
  /** Only containers created at least this long ago. */
  olderThanMs?: number;
  /** Only containers whose creating process is gone (checked on this host only). */
  onlyOrphans?: boolean;
  /** Only what this process created (its pid on this host): a run's own sweep at its end, never another process's. */
  onlyThisProcess?: boolean;
}
