import type { EngineHealth } from '@agentbench/sandbox';
import type { AttemptRecord } from '@agentbench/schemas';

/** What judging a failed try asks of the engines (EngineSet answers it; tests give a fake). */
export interface EngineWitness {
  checkHealth(name: string): Promise<EngineHealth>;
  stopEvidence(name: string, since: Date): Promise<string | undefined>;
}

export type EngineVerdict = { isLost: false } | { isLost: true; reason: string };

export interface JudgeEngineLossOptions {
  engines: EngineWitness;
  /** The engine the failed try ran on. */
  engine: string;
  /** When the try was placed: evidence older than this is another try's. */
  since: Date;
  /** How long an engine with evidence of shutting down is watched before the failure counts as the try's own. Default 30 s. */
  graceMs?: number;
  /** Time between pings while watching. Default 1 s. */
  recheckMs?: number;
}

/**
 * An engine with evidence of shutting down is watched this long: a stopping dockerd stops its containers
 * first and answers pings until its shutdown ends (15 s seen on a loaded machine, more with long stop timeouts).
 */
export const DYING_ENGINE_GRACE_MS = 30_000;
const RECHECK_EVERY_MS = 1_000;

/**
 * Whether a failed try was lost to its engine (the engine's failure, not the task's or the agent's).
 * It costs one ping and one read of the engine's past events on a healthy engine, never a wait:
 * - the engine does not answer a ping → lost;
 * - it answers, and nothing points at a shutdown (no container of ours stopped by the engine, events
 *   API answering) → not lost: the failure is the try's own, whatever it is;
 * - it answers but the evidence says it may be stopping → it is watched (a ping every `recheckMs`, for
 *   `graceMs`): it goes away → lost; it keeps answering → not lost (a container stopped from outside on
 *   an engine that stays up is the try's failure as recorded).
 */
export async function judgeEngineLoss(options: JudgeEngineLossOptions): Promise<EngineVerdict> {
  const { engines, engine } = options;
  const health = await engines.checkHealth(engine);
  if (!health.isUp) return { isLost: true, reason: `engine '${engine}' stopped answering (${health.message})` };
  const evidence = await engines.stopEvidence(engine, options.since);
  if (evidence === undefined) return { isLost: false };
  const deadline = Date.now() + (options.graceMs ?? DYING_ENGINE_GRACE_MS);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(options.recheckMs ?? RECHECK_EVERY_MS, Math.max(0, deadline - Date.now()))));
    const later = await engines.checkHealth(engine);
    if (!later.isUp) return { isLost: true, reason: `engine '${engine}' stopped answering (${later.message}; before that, ${evidence})` };
  }
  return { isLost: false };
}

/** judgeEngineLoss for a finished try: one that passed, or that the run aborted, is never lost and costs nothing. */
export async function judgeFinishedTry(record: AttemptRecord, signal: AbortSignal | undefined, options: JudgeEngineLossOptions): Promise<EngineVerdict> {
  if (record.result.failure_reason === null || signal?.aborted === true) return { isLost: false };
  return judgeEngineLoss(options);
}
