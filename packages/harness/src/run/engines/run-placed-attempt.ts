import type { EngineSet } from '@agentbench/sandbox';
import { engineSandboxFactory, type EnginePlacement } from './engine-sandbox-factory.js';
import { runOnEngine, type PlacedOutcome } from './run-on-engine.js';

export type { PlacedOutcome } from './run-on-engine.js';

export interface RunPlacedAttemptOptions<Outcome extends PlacedOutcome> {
  engineSet: EngineSet;
  /** Runs the attempt with the placement's sandbox factory; it must not throw for a failing task. */
  attempt: (placement: EnginePlacement) => Promise<Outcome>;
  /** Called before an attempt is run again on another engine (clear what the lost try left: workspace, logs). */
  beforeRetry?: (lost: { engine: string; reason: string; outcome: Outcome }) => Promise<void>;
  signal?: AbortSignal;
  /** How long an engine showing signs of shutting down is watched before the failure is called the task's (judgeEngineLoss). Default 30 s. */
  dyingEngineGraceMs?: number;
}

export interface PlacedAttemptResult<Outcome extends PlacedOutcome> {
  /** The final try's outcome; its record names the engine it ran on. */
  outcome: Outcome;
  /** Tries lost to an engine that stopped answering, in order. */
  lost: Array<{ engine: string; reason: string }>;
}

/**
 * validate-suite's placement, which records one result per task and has no tries: the attempt runs on
 * the engine with the most free capacity; a try lost to its engine (runOnEngine, judgeEngineLoss) is
 * dropped (not recorded) and the attempt runs again on another engine, at most once per engine. A
 * failure on an engine that is not lost is the attempt's result. (`ab run` does not use this loop: its
 * lost tries are recorded and retried by its own retries.)
 */
export async function runPlacedAttempt<Outcome extends PlacedOutcome>(options: RunPlacedAttemptOptions<Outcome>): Promise<PlacedAttemptResult<Outcome>> {
  const placer = engineSandboxFactory(options.engineSet);
  const lost: Array<{ engine: string; reason: string }> = [];
  const tries = options.engineSet.engines.length;
  for (let attempt = 1; ; attempt += 1) {
    const placed = await runOnEngine({
      engineSet: options.engineSet,
      placer,
      attempt: options.attempt,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.dyingEngineGraceMs === undefined ? {} : { dyingEngineGraceMs: options.dyingEngineGraceMs }),
    });
    placed.outcome.record.engine = placed.engine;
    if (placed.lostReason === undefined || attempt >= tries) return { outcome: placed.outcome, lost };
    const reason = `${placed.lostReason}; the attempt (${placed.outcome.record.result.failure_reason}) runs again on another engine`;
    lost.push({ engine: placed.engine, reason });
    await options.beforeRetry?.({ engine: placed.engine, reason, outcome: placed.outcome });
  }
}
