import type { AttemptRecord } from '@agentbench/schemas';
import type { EngineHealth, EngineSet } from '@agentbench/sandbox';
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
  /** How long a sandbox failure's engine is watched for going away before the failure is called the task's. Default 30 s. */
  dyingEngineGraceMs?: number;
}

/**
 * A stopping dockerd kills its containers first and answers pings until its shutdown ends (15 s seen); the attempt
 * sees its sandbox fail first. So after a sandbox failure (the infrastructure class) the engine is asked
 * again for this long before the failure counts as the task's.
 */
export const DYING_ENGINE_GRACE_MS = 30_000;
const RECHECK_EVERY_MS = 1_000;

async function confirmHealth(engineSet: EngineSet, engine: string, graceMs: number): Promise<EngineHealth> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const health = await engineSet.checkHealth(engine);
    if (!health.isUp || Date.now() >= deadline) return health;
    await new Promise((resolve) => setTimeout(resolve, RECHECK_EVERY_MS));
  }
}

export interface PlacedAttemptResult<Outcome extends PlacedOutcome> {
  /** The final try's outcome; its record names the engine it ran on. */
  outcome: Outcome;
  /** Tries lost to an engine that stopped answering, in order. */
  lost: Array<{ engine: string; reason: string }>;
}

/**
 * Runs one attempt on the engine with the most free capacity. When the attempt fails and its engine
 * no longer answers a ping (after a sandbox failure: within `dyingEngineGraceMs`), the failure is the engine's, not the task's (engine-unreachable, infra):
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
    const health = await confirmHealth(options.engineSet, placement.engine, outcome.record.result.failure_reason === 'SANDBOX_ERROR' ? options.dyingEngineGraceMs ?? DYING_ENGINE_GRACE_MS : 0);
    if (health.isUp) return { outcome, lost };
    options.engineSet.markDown(placement.engine, health.message);
    const reason = `engine '${placement.engine}' stopped answering (${health.message}); the attempt (${outcome.record.result.failure_reason}) runs again on another engine`;
    lost.push({ engine: placement.engine, reason });
    await options.beforeRetry?.({ engine: placement.engine, reason, outcome });
  }
}
