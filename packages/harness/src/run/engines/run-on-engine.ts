import type { AttemptRecord } from '@agentbench/schemas';
import type { EngineSet } from '@agentbench/sandbox';
import type { EnginePlacement, EngineSandboxFactory } from './engine-sandbox-factory.js';
import { judgeFinishedTry } from './judge-engine-loss.js';

/** What a try on an engine gave back: anything holding its record. */
export interface PlacedOutcome {
  record: AttemptRecord;
}

export interface RunOnEngineOptions<Outcome extends PlacedOutcome> {
  engineSet: EngineSet;
  placer: EngineSandboxFactory;
  /** Runs the try with the placement's sandbox factory; it must not throw for a failing task. */
  attempt: (placement: EnginePlacement) => Promise<Outcome>;
  signal?: AbortSignal;
  /** See judgeEngineLoss. Default DYING_ENGINE_GRACE_MS. */
  dyingEngineGraceMs?: number;
}

export interface EngineTry<Outcome extends PlacedOutcome> {
  outcome: Outcome;
  /** The engine it ran on. */
  engine: string;
  /** Set when the try was lost to its engine (now marked down): why, naming the engine. */
  lostReason?: string;
}

/**
 * One try on the engine with the most free capacity, judged when it fails: a try lost to its engine
 * (judgeEngineLoss) marks the engine down, so no further try is placed there. Whether and how the
 * attempt is tried again is the caller's: validate-suite re-places it (runPlacedAttempt), `ab run`
 * records the lost try as infra and lets its retries run the next one.
 */
export async function runOnEngine<Outcome extends PlacedOutcome>(options: RunOnEngineOptions<Outcome>): Promise<EngineTry<Outcome>> {
  const placement = await options.placer.place(options.signal);
  const since = new Date();
  // The lease is held while the engine is judged: nothing new goes to an engine being watched for a shutdown.
  try {
    const outcome = await options.attempt(placement);
    const verdict = await judgeFinishedTry(outcome.record, options.signal, {
      engines: options.engineSet,
      engine: placement.engine,
      since,
      ...(options.dyingEngineGraceMs === undefined ? {} : { graceMs: options.dyingEngineGraceMs }),
    });
    if (!verdict.isLost) return { outcome, engine: placement.engine };
    options.engineSet.markDown(placement.engine, verdict.reason);
    return { outcome, engine: placement.engine, lostReason: verdict.reason };
  } finally {
    placement.release();
  }
}
