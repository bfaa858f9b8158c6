import type { AttemptRecord } from '@agentbench/schemas';
import { failureClassOfRecord, RUN_STOPPED_CAUSE } from '@agentbench/scoring';

/** Where one attempt of a run stands, from its recorded tries. */
export interface AttemptTryState {
  /** Its last recorded try is final: nothing of it runs again. */
  isComplete: boolean;
  /** The try to run next (1-based): one more than the last recorded. */
  nextTry: number;
  /** Recorded tries that failed on infrastructure, each using up a retry (tries the run's stop cut off not counted). */
  infraTries: number;
  /** The last recorded try, if any. */
  last?: AttemptRecord;
}

/**
 * A try cut off by the run stopping (Ctrl-C, a run abort): the harness's own abort, recorded as
 * such. It is not the attempt's try: a resume runs it again without using up a retry. Any other
 * interruption (one the agent raised, a test command exiting 130, an older record without the
 * cause) is an ordinary try: final when it is the agent's, counted against `--retries` when infra.
 */
export function isRunStop(record: AttemptRecord): boolean {
  return record.result.failure_reason === 'INTERRUPTED' && isInfraFailure(record) && record.failure_cause === RUN_STOPPED_CAUSE;
}

/** True when the record's failure is infrastructure's (passes are not). */
export function isInfraFailure(record: AttemptRecord): boolean {
  return failureClassOfRecord(record) === 'infra';
}

/**
 * The state of an attempt from its records in attempts.jsonl (its tries, in order). A try is final
 * unless it failed on infrastructure with retries left, or the run's stop cut it off (a resume runs
 * it again, under the next try index so no (attempt, try) pair is ever recorded twice). Every try
 * that is not a run stop counts, so the tries of an attempt are bounded by `retries + 1` per run.
 */
export function attemptTryState(records: readonly AttemptRecord[], retries: number): AttemptTryState {
  const last = records.at(-1);
  const infraTries = records.filter((record) => isInfraFailure(record) && !isRunStop(record)).length;
  const nextTry = Math.max(0, ...records.map((record) => record.try ?? 1)) + 1;
  if (last === undefined) return { isComplete: false, nextTry: 1, infraTries: 0 };
  const isComplete = !isRunStop(last) && (!isInfraFailure(last) || infraTries > retries);
  return { isComplete, nextTry, infraTries, last };
}

/**
 * Marks a finished try: `errored` when it failed on infrastructure and no retry is left (or the
 * run's stop cut it off), so reports leave it out of pass rates; a later try of the attempt replaces it.
 */
export function markErrored(record: AttemptRecord, infraTriesBefore: number, retries: number): AttemptRecord {
  const isInfra = isInfraFailure(record);
  const isLastTry = infraTriesBefore + 1 > retries;
  return { ...record, errored: isInfra && (isRunStop(record) || isLastTry) };
}

/** Groups records by attempt id, keeping each attempt's tries in the order they were written. */
export function triesByAttempt(records: readonly AttemptRecord[]): Map<string, AttemptRecord[]> {
  const byAttempt = new Map<string, AttemptRecord[]>();
  for (const record of records) {
    if (record.attempt_id === undefined) continue;
    const tries = byAttempt.get(record.attempt_id);
    if (tries === undefined) byAttempt.set(record.attempt_id, [record]);
    else tries.push(record);
  }
  return byAttempt;
}

/** The delay before try `nextTry` (2, 3...): `baseMs`, doubled each try, capped at a minute. */
export function retryDelayMs(nextTry: number, baseMs: number): number {
  return Math.min(60_000, baseMs * 2 ** Math.max(0, nextTry - 2));
}
