/** What a run's efficiency is computed from, and the figure (run.json `efficiency`, snake_case on disk). */
export interface RunEfficiency {
  /** CPU seconds the run's sandboxes used, from their cgroups (readContainerCpuSeconds of @agentbench/sandbox). */
  cpu_seconds: number;
  /** Cores of the host the run had. */
  cores: number;
  /** The run's wall time in seconds. */
  wall_seconds: number;
  /** (cpu_seconds ÷ cores) ÷ wall_seconds: 1 when the sandboxed commands kept every core busy the whole run. */
  value: number;
}

/**
 * Issue 26's efficiency: the share of the machine's CPU the sandboxed commands used over the run,
 * (CPU seconds ÷ cores) ÷ wall time. Low means the cores waited (on the harness, on creates, on a
 * too-low concurrency); it cannot pass 1 on one host. Undefined for a run of no wall time or no cores.
 */
export function runEfficiency(cpuSeconds: number, cores: number, wallSeconds: number): RunEfficiency | undefined {
  if (!(wallSeconds > 0) || !(cores > 0) || !(cpuSeconds >= 0)) return undefined;
  const round = (value: number, digits: number): number => Number(value.toFixed(digits));
  return { cpu_seconds: round(cpuSeconds, 3), cores, wall_seconds: round(wallSeconds, 3), value: round(cpuSeconds / cores / wallSeconds, 4) };
}
