import type { AttemptRecord } from '@agentbench/schemas';
import type { EngineSet } from '@agentbench/sandbox';
import { engineSandboxFactory, type EnginePlacement } from './engine-sandbox-factory.js';

/** What an attempt on an engine gave back: anything holding its record. */
export interface PlacedOutcome {
  record: AttemptRecord;
}

export interface RunPlacedAttemptOptions<Outcome extends PlacedOutcome> {
  engineSet: EngineSet;
  /** Runs the attempt with the placement's sandbox factory; it must not throw for a failing task. */
  attempt: (placement: EnginePlacement) => Promise<Outcome>;
  /** Called before an attempt is run again on another engine (clear what the lost try left: workspace, logs). */
  beforeRetry?: (lost: { engine: string; reason: string; outcome: Outcome }) => Promise<void>;
  signal?: AbortSignal;
}

export interface PlacedAttemptResult<Outcome extends PlacedOutcome> {
  /** The final try's outcome; its record names the engine it ran on. */
  outcome: Outcome;
  /** Tries lost to an engine that stopped answering, in order. */
  lost: Array<{ engine: string; reason: string }>;
}

/**
 * Runs one attempt on the engine with the most free capacity. When the attempt fails and its engine
 * no longer answers a ping, the failure is the engine's, not the task's (engine-unreachable, infra):
 * the engine is marked down, the try is dropped (not recorded) and the attempt runs again on another
 * engine, at most once per engine. A failure on an engine that still answers is the attempt's result.
 */
export async function runPlacedAttempt<Outcome extends PlacedOutcome>(options: RunPlacedAttemptOptions<Outcome>): Promise<PlacedAttemptResult<Outcome>> {
  const placer = engineSandboxFactory(options.engineSet);
  const lost: Array<{ engine: string; reason: string }> = [];
  const tries = options.engineSet.engines.length;
  for (let attempt = 1; ; attempt += 1) {
    const placement = await placer.place(options.signal);
    let outcome: Outcome;
    try {
      outcome = await options.attempt(placement);
    } finally {
      placement.release();
    }
    outcome.record.engine = placement.engine;
    const isAborted = options.signal?.aborted === true;
    if (outcome.record.result.failure_reason === null || isAborted || attempt >= tries) return { outcome, lost };
    const health = await options.engineSet.checkHealth(placement.engine);
    if (health.isUp) return { outcome, lost };
    options.engineSet.markDown(placement.engine, health.message);
    const reason = `engine '${placement.engine}' stopped answering (${health.message}); the attempt (${outcome.record.result.failure_reason}) runs again on another engine`;
    lost.push({ engine: placement.engine, reason });
    await options.beforeRetry?.({ engine: placement.engine, reason, outcome });
  }
}
