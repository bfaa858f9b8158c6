import { abortableDelay, type AutoConcurrency } from '@agentbench/scheduler';
import type { AttemptRecord } from '@agentbench/schemas';
import type { SandboxCpuMeter } from '../plan/sandbox-cpu-meter.js';
import type { SandboxFactory } from '../plan/sandbox-factory.js';
import { attemptTryState, isInfraFailure, markErrored, retryDelayMs } from './attempt-tries.js';
import { DEFAULT_ENGINE_NAME, defaultEngineWitness } from './engines/default-engine-witness.js';
import type { EnginePlacement, EngineSandboxFactory } from './engines/engine-sandbox-factory.js';
import { judgeFinishedTry } from './engines/judge-engine-loss.js';
import { runOnEngine } from './engines/run-on-engine.js';
import { runPlacedAttempt } from './engines/run-placed-attempt.js';
import { recordLostTry } from './record-lost-try.js';
import { runSandboxFactory, timedForAuto, type RunSandboxes } from './run-sandboxes.js';
import type { StartedRun } from './started-run.js';

/** What the driver hands one try of an attempt. */
export interface TryInput {
  /** 1-based. */
  try: number;
  /** The try's sandboxes (see RunSandboxes): metered for run.json's efficiency, timed for `-j auto`. */
  createSandbox: SandboxFactory;
  /** With an engines list: the engine the try is placed on. */
  engine?: string;
  /**
   * Adds the driver's fields to the try's record: its engine, and with retries its try number and
   * whether it is `errored` (markErrored). The driver applies it to the record the try returns; the
   * plan passes it on to the pipeline too, so the try's attempt.json carries them.
   */
  completeRecord(record: AttemptRecord): AttemptRecord;
  /** Aborted when the run stops: the try records itself INTERRUPTED. */
  signal: AbortSignal;
}

/** What a try gives back: anything holding its record. */
export interface TriedOutcome {
  record: AttemptRecord;
  /** The try's folder, whose attempt.json is rewritten when the try is found lost to its engine. */
  tryDir?: string;
}

/** `ab run`'s retries: every try is recorded, and one that failed on infrastructure (lost to its engine included) is tried again. */
export interface InfraRetries<Item> {
  /** Tries after the first for an attempt whose tries fail on infrastructure. */
  retries: number;
  /** Wait before the second try; doubled each further try, capped at a minute. */
  backoffMs: number;
  /** The tries of an attempt that attempts.jsonl holds already (a resume), in order. */
  recordedTries(item: Item): readonly AttemptRecord[];
}

/**
 * How a plan's attempts run as tries the driver places, judges and retries. Without `retries` an
 * attempt is one try, save that a try lost to an engine of an engines list is dropped and the
 * attempt runs again on another engine (at most once per engine; `beforeRerun` clears what it left).
 * With `retries`, each try is handed to `finished` (to be recorded), and a failed try on the default
 * engine is judged as an engines list's is: a try lost to it is infrastructure, retried.
 */
export interface AttemptTries<Item, Outcome extends TriedOutcome> {
  /** Runs one try of `item` on the sandboxes given. A throw goes to `failed`. */
  run(item: Item, input: TryInput, run: StartedRun): Promise<Outcome>;
  /** A try that counts has ended (its record complete): `isFinal`, the attempt's last; `willRetry`, another try follows (neither: the run stopped). */
  finished(item: Item, outcome: Outcome, end: { try: number; isFinal: boolean; willRetry: boolean }, run: StartedRun, signal: AbortSignal): Promise<void>;
  /** A try threw (or its placement did): the attempt ends here; a throw from this fails the run. Default: rethrow. */
  failed?(item: Item, error: unknown, tryNumber: number, run: StartedRun): Promise<void>;
  retries?: InfraRetries<Item>;
  /** A try lost to its engine is about to run again on another (without `retries`): clear what it left. */
  beforeRerun?(item: Item, lost: { engine: string; reason: string; outcome: Outcome }, run: StartedRun): Promise<void>;
}

/** What the driver knows of the run that the tries need. */
export interface TriesContext {
  sandboxes: RunSandboxes;
  /** Places tries on `sandboxes.engines` (one per run, so each engine's client is made once). */
  placer: EngineSandboxFactory | undefined;
  auto: AutoConcurrency | undefined;
  meter: SandboxCpuMeter;
}

/**
 * Runs one attempt of a plan as its tries: each placed on an engine (with an engines list) or given
 * the run's sandboxes, judged for the loss of its engine when it fails, and tried again as the plan's
 * retries say. `-j auto` hears of each create and of the attempt's end.
 */
export async function driveAttemptTries<Item, Outcome extends TriedOutcome>(
  item: Item,
  run: StartedRun,
  signal: AbortSignal,
  tries: AttemptTries<Item, Outcome>,
  context: TriesContext,
): Promise<void> {
  const timed = timedForAuto(context.auto);
  const { engines, dyingEngineGraceMs } = context.sandboxes;
  const grace = dyingEngineGraceMs === undefined ? {} : { dyingEngineGraceMs };
  const inputOf = (tryNumber: number, placement: EnginePlacement | undefined, completeRecord: (record: AttemptRecord) => AttemptRecord): TryInput => ({
    try: tryNumber,
    createSandbox: timed(context.meter.wrap(runSandboxFactory(context.sandboxes, run.pool, placement?.createSandbox))),
    ...(placement === undefined ? {} : { engine: placement.engine }),
    completeRecord,
    signal,
  });
  /** A throw of a try: the attempt ends, quietly when the run stopped while it waited for a place. */
  const failed = async (error: unknown, tryNumber: number): Promise<void> => {
    if (signal.aborted && error === signal.reason) return;
    if (tries.failed === undefined) throw error;
    await tries.failed(item, error, tryNumber, run);
  };
  let lastWasInfra = false;
  try {
    const retries = tries.retries;
    if (retries === undefined) {
      const runOn = async (placement?: EnginePlacement): Promise<Outcome> => {
        const complete = (record: AttemptRecord): AttemptRecord => (placement === undefined ? record : { ...record, engine: placement.engine });
        return tries.run(item, inputOf(1, placement, complete), run);
      };
      let outcome: Outcome;
      try {
        outcome =
          engines === undefined || context.placer === undefined
            ? await runOn()
            : (await runPlacedAttempt({ engineSet: engines, signal, attempt: runOn, beforeRetry: async (lost) => tries.beforeRerun?.(item, lost, run), ...grace })).outcome;
      } catch (error) {
        return await failed(error, 1);
      }
      lastWasInfra = isInfraFailure(outcome.record);
      await tries.finished(item, outcome, { try: 1, isFinal: true, willRetry: false }, run, signal);
      return;
    }

    const recorded = [...retries.recordedTries(item)];
    let state = attemptTryState(recorded, retries.retries);
    for (let isFirst = true; !state.isComplete && !signal.aborted; isFirst = false) {
      const tryNumber = state.nextTry;
      if (!isFirst) await abortableDelay(retryDelayMs(tryNumber, retries.backoffMs), signal);
      if (signal.aborted) break;
      const infraBefore = state.infraTries;
      const runOn = async (placement?: EnginePlacement): Promise<Outcome> => {
        const complete = (record: AttemptRecord): AttemptRecord =>
          markErrored({ ...record, try: tryNumber, ...(placement === undefined ? {} : { engine: placement.engine }) }, infraBefore, retries.retries);
        const outcome = await tries.run(item, inputOf(tryNumber, placement, complete), run);
        return { ...outcome, record: complete(outcome.record) };
      };
      let outcome: Outcome;
      try {
        let lostReason: string | undefined;
        if (engines === undefined || context.placer === undefined) {
          const since = new Date();
          outcome = await runOn();
          // The default engine (no engines list, no caller's factory) is judged as an engines list's is: a try lost to it is infra, retried.
          if (context.sandboxes.createSandbox === undefined) {
            const verdict = await judgeFinishedTry(outcome.record, signal, { engines: defaultEngineWitness(), engine: DEFAULT_ENGINE_NAME, since, ...(dyingEngineGraceMs === undefined ? {} : { graceMs: dyingEngineGraceMs }) });
            if (verdict.isLost) lostReason = verdict.reason;
          }
        } else {
          // One try on one engine; a try lost to its engine is recorded like any infra try, and the retries run the next one elsewhere.
          const placed = await runOnEngine({ engineSet: engines, placer: context.placer, signal, attempt: runOn, ...grace });
          outcome = placed.outcome;
          lostReason = placed.lostReason;
        }
        if (lostReason !== undefined) outcome = { ...outcome, record: await recordLostTry(outcome.record, lostReason, outcome.tryDir, infraBefore, retries.retries) };
      } catch (error) {
        return await failed(error, tryNumber);
      }
      recorded.push(outcome.record);
      state = attemptTryState(recorded, retries.retries);
      lastWasInfra = isInfraFailure(outcome.record);
      await tries.finished(item, outcome, { try: tryNumber, isFinal: state.isComplete, willRetry: !state.isComplete && !signal.aborted }, run, signal);
    }
  } finally {
    context.auto?.itemFinished(lastWasInfra);
  }
}
