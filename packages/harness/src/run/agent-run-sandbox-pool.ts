import type { Task } from '@agentbench/schemas';
import { taskSandboxSpec } from '../attempt/task-sandbox-spec.js';
import { startRunSandboxPool, type PoolIdleCapacity, type RunSandboxPool } from './run-sandbox-pool.js';

/** The options of `runAgentRun` that decide the pool. */
export interface AgentRunPoolOptions {
  createSandbox?: unknown;
  runAttempt?: unknown;
  engines?: unknown;
  agent?: string;
  sandboxPoolSize?: number;
  sandboxPoolIdleCapacity?: PoolIdleCapacity;
}

/**
 * The warm sandboxes of an `ab run`, or none. Each attempt takes one sandbox from it, the agent's:
 * the verdict's starts from the attempt's post-setup snapshot (a Docker image of that attempt, which
 * no pool can hold warm), so the pool keeps one per attempt in flight. None when the caller makes the sandboxes (`createSandbox`,
 * which is how `--runtime` arrives: a warm sandbox's runtime is fixed when it starts) or runs the
 * tries itself (`runAttempt`), nor with an engines list (`engines`): each try is placed on an engine and
 * uses that engine's factory, and the pool is the local engine's. None for an installed agent
 * (`agent`) either: its sandbox mounts the attempt's own gateway folder, fixed at the start, so no
 * warm sandbox could ever match one.
 *
 * The pool warms ahead for the first attempts to run (one per attempt in flight), from their tasks:
 * those sandboxes start while the run writes its plan and the attempts clone, instead of on the
 * attempts' path.
 */
export async function agentRunSandboxPool(
  options: AgentRunPoolOptions,
  run: { runDir: string; runId: string; concurrency: number; attemptsToRun: ReadonlyArray<{ task: { task: Task } }> },
): Promise<RunSandboxPool | undefined> {
  if (options.createSandbox !== undefined || options.runAttempt !== undefined || options.engines !== undefined || options.agent !== undefined) return undefined;
  const size = options.sandboxPoolSize ?? run.concurrency;
  return startRunSandboxPool({
    runDir: run.runDir,
    runId: run.runId,
    size,
    // One take per attempt still to run: a warm sandbox beyond them would only be removed at the end.
    expectedTakes: run.attemptsToRun.length,
    firstTakes: run.attemptsToRun.slice(0, Math.min(size, run.concurrency)).map((attempt) => taskSandboxSpec(attempt.task.task)),
    ...(options.sandboxPoolIdleCapacity === undefined ? {} : { idleCapacity: options.sandboxPoolIdleCapacity }),
  });
}
