import type { AttemptPair, TrajectoryDivergence, RunComparison, ToolCallStep } from './run-comparison.js';

/** Changed pairs that read the same: one task, one change (and result on each side), one divergence. */
export interface ChangedTaskGroup {
  /** The group's first pair's divergence: its trajectories are the ones shown. */
  divergence: TrajectoryDivergence;
  /** Every pair of the group, by repeat. */
  pairs: AttemptPair[];
}

function callKey(call: ToolCallStep | null): string {
  return call === null ? '' : `${call.tool}\u0000${call.arguments}`;
}

function resultOf(side: AttemptPair['a'] | undefined): string {
  return side?.failureReason ?? side?.status ?? '';
}

/**
 * Groups the regressions and fixes that read the same (task, change, each side's result, the first
 * divergence's index and its two calls), so ten identical regressions of one task are one row with
 * a count, not ten blocks. Groups keep the comparison's order (regressions first).
 */
export function groupChangedTasks(comparison: RunComparison): ChangedTaskGroup[] {
  const groups = new Map<string, ChangedTaskGroup>();
  for (const divergence of comparison.divergences) {
    const pair = comparison.pairs.find((item) => item.taskId === divergence.taskId && item.repeat === divergence.repeat);
    if (pair === undefined) continue;
    const key = [divergence.taskId, divergence.outcome, resultOf(pair.a), resultOf(pair.b), divergence.index ?? '', divergence.note ?? '', callKey(divergence.a), callKey(divergence.b)].join('\u0001');
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { divergence, pairs: [pair] });
    else group.pairs.push(pair);
  }
  return [...groups.values()];
}

/** `#2–#4, #7`: 0-based repeats as 1-based numbers, runs of consecutive ones joined. */
function repeatRanges(repeats: readonly number[]): string {
  const sorted = [...new Set(repeats)].sort((left, right) => left - right);
  const ranges: string[] = [];
  for (let index = 0; index < sorted.length; ) {
    let end = index;
    while (end + 1 < sorted.length && (sorted[end + 1] as number) === (sorted[end] as number) + 1) end += 1;
    const first = (sorted[index] as number) + 1;
    const last = (sorted[end] as number) + 1;
    ranges.push(first === last ? `#${first}` : `${end === index + 1 ? `#${first}, #${last}` : `#${first}–#${last}`}`);
    index = end + 1;
  }
  return ranges.join(', ');
}

/**
 * Which attempts a group (or one pair) is: each side's model and the repeats, `A scripted → B
 * openai/gpt-4o #2–#10` (the n-th attempt of the task in A is paired with the n-th in B).
 */
export function attemptsOfGroup(pairs: readonly AttemptPair[]): string {
  const byModels = new Map<string, number[]>();
  for (const pair of pairs) {
    const key = `A ${pair.a.model ?? 'unknown'} → B ${pair.b.model ?? 'unknown'}`;
    byModels.set(key, [...(byModels.get(key) ?? []), pair.repeat]);
  }
  return [...byModels].map(([models, repeats]) => `${models} ${repeatRanges(repeats)}`).join('; ');
}

/** `9×` for a group of nine, empty for one. */
export function groupCount(group: ChangedTaskGroup): string {
  return group.pairs.length === 1 ? '' : `${group.pairs.length}×`;
}
