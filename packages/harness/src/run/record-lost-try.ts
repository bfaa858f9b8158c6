import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { AttemptRecord } from '@agentbench/schemas';
import { writeJsonAtomic } from '@agentbench/helpers';
import { markErrored } from './attempt-tries.js';

/**
 * The record of a try lost to its engine (judgeEngineLoss): an infrastructure failure whatever stage it
 * ended in (an engine stopping during the agent's run is not the agent's doing), with the reason naming the
 * engine in `engine_unreachable`. The try's own attempt.json (in `tryDir`), written before the verdict, is brought in line.
 */
export async function recordLostTry(record: AttemptRecord, reason: string, tryDir: string | undefined, infraTriesBefore: number, retries: number): Promise<AttemptRecord> {
  const lost = markErrored({ ...record, failure_class: 'infra', engine_unreachable: reason }, infraTriesBefore, retries);
  if (tryDir === undefined) return lost;
  const attemptFile = path.join(tryDir, 'attempt.json');
  const hasAttemptFile = await stat(attemptFile).then(
    () => true,
    () => false,
  );
  if (hasAttemptFile) await writeJsonAtomic(attemptFile, lost);
  return lost;
}
