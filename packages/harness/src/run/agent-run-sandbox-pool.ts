import { startRunSandboxPool, type PoolIdleCapacity, type RunSandboxPool } from './run-sandbox-pool.js';

/** The options of `runAgentRun` that decide the pool. */
export interface AgentRunPoolOptions {
  createSandbox?: unknown;
  runAttempt?: unknown;
  engines?: unknown;
  sandboxPoolSize?: number;
  sandboxPoolIdleCapacity?: PoolIdleCapacity;
}

/**
 * The warm sandboxes of an `ab run`, or none. Each attempt takes one sandbox from it, the agent's:
 * the verdict's starts from the attempt's post-setup snapshot (a Docker image of that attempt, which
 * no pool can hold warm), so the pool keeps one per attempt in flight. None when the caller makes the sandboxes (`createSandbox`,
 * which is how `--runtime` arrives: a warm sandbox's runtime is fixed when it starts) or runs the
 * tries itself (`runAttempt`), nor with an engines list (`engines`): each try is placed on an engine and
 * uses that engine's factory, and the pool is the local engine's.
 */
export async function agentRunSandboxPool(options: AgentRunPoolOptions, run: { runDir: string; runId: string; concurrency: number; attemptsToRun: number }): Promise<RunSandboxPool | undefined> {
  if (options.createSandbox !== undefined || options.runAttempt !== undefined || options.engines !== undefined) return undefined;
  // One take per attempt still to run: a warm sandbox beyond them would only be removed at the end.
  return startRunSandboxPool({
    runDir: run.runDir,
    runId: run.runId,
    size: options.sandboxPoolSize ?? run.concurrency,
    expectedTakes: run.attemptsToRun,
    ...(options.sandboxPoolIdleCapacity === undefined ? {} : { idleCapacity: options.sandboxPoolIdleCapacity }),
  });
}
