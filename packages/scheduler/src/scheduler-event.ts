/** How many items are where; every event carries a copy taken when it happened. */
export interface ScheduleCounts {
  total: number;
  /** Waiting to start. */
  queued: number;
  /** Started (admitted), not yet settled. */
  running: number;
  /** Settled with a value. */
  finished: number;
  /** Settled with an error (the work threw, or `admit` did). */
  failed: number;
  /** Left out by the resume filter (`shouldRun`). */
  skipped: number;
  /** Never started because the run stopped (the signal was aborted, or `stopOnFailure`). */
  cancelled: number;
}

/** Why the scheduler stopped starting items: its signal was aborted, or an item failed under `stopOnFailure` (or `onEvent` threw). */
export type StopCause = 'signal' | 'failure';

/** Progress of a scheduled run, in the order it happened; one `item-queued` or `item-skipped` per item first. */
export type SchedulerEvent<Item> =
  | { type: 'item-queued'; item: Item; index: number; counts: ScheduleCounts }
  | { type: 'item-skipped'; item: Item; index: number; counts: ScheduleCounts }
  | { type: 'item-started'; item: Item; index: number; key: string; counts: ScheduleCounts }
  | { type: 'item-finished'; item: Item; index: number; key: string; counts: ScheduleCounts }
  | { type: 'item-failed'; item: Item; index: number; key: string; error: unknown; counts: ScheduleCounts }
  | { type: 'scheduler-stopping'; cause: StopCause; counts: ScheduleCounts }
  | { type: 'item-cancelled'; item: Item; index: number; counts: ScheduleCounts };
