/** The order a run starts its attempts in: `longest-first` (the default) or the order the user gave (`as-listed`). */
export type AttemptOrder = 'longest-first' | 'as-listed';

export const ATTEMPT_ORDERS: readonly AttemptOrder[] = ['longest-first', 'as-listed'];

/**
 * Items ordered by expected duration, longest first (longest-processing-time-first scheduling: with
 * a fixed number of slots, a long attempt started last leaves the run's tail to itself while the
 * other slots sit idle). Each item's expectation is its task's median duration in earlier runs when
 * there is one, else its fallback (the task's declared timeout: an unknown task is placed by its
 * bound, early rather than late). Ties keep the given order, so the order is deterministic for the
 * same history. `as-listed` returns the items as given.
 */
export function orderAttempts<Item>(
  items: readonly Item[],
  order: AttemptOrder,
  expected: { taskIdOf(item: Item): string; past: ReadonlyMap<string, number>; fallbackSeconds(item: Item): number },
): Item[] {
  if (order === 'as-listed') return [...items];
  const seconds = items.map((item) => expected.past.get(expected.taskIdOf(item)) ?? expected.fallbackSeconds(item));
  return items
    .map((item, index) => ({ item, index }))
    .sort((left, right) => (seconds[right.index] as number) - (seconds[left.index] as number) || left.index - right.index)
    .map(({ item }) => item);
}
