import { FAILURE_REASONS, type FailureReason } from '@agentbench/schemas';
import { describeValue } from '@agentbench/helpers';
import { ScoringError } from '../errors/scoring-error.js';
import { isFailureReason } from '../taxonomy/failure-precedence.js';

/** Attempts per FailureReason; every reason is present, zero when it never occurred. */
export type FailureCounts = Record<FailureReason, number>;

/** A count of zero for every FailureReason, in the schema's order. */
export function emptyFailureCounts(): FailureCounts {
  return Object.fromEntries(FAILURE_REASONS.map((reason) => [reason, 0])) as FailureCounts;
}

/** Counts reasons; null/undefined entries (passed attempts) are skipped. */
export function countFailureReasons(reasons: Iterable<FailureReason | null | undefined>): FailureCounts {
  const counts = emptyFailureCounts();
  let index = 0;
  for (const reason of reasons) {
    const field = `reasons[${index}]`;
    index += 1;
    if (reason === null || reason === undefined) continue;
    if (!isFailureReason(reason)) {
      throw new ScoringError(field, `expected a FailureReason (${FAILURE_REASONS.join(', ')}), found ${describeValue(reason)}`);
    }
    counts[reason] += 1;
  }
  return counts;
}
