/** What became of one item, at its index in the items given to `runScheduled`. */
export type ScheduledOutcome<Item, Result> =
  | { status: 'fulfilled'; item: Item; index: number; value: Result }
  | { status: 'rejected'; item: Item; index: number; error: unknown }
  /** Left out by the resume filter. */
  | { status: 'skipped'; item: Item; index: number }
  /** Never started: the run stopped first. */
  | { status: 'cancelled'; item: Item; index: number };
