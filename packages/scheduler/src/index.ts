export { SchedulerError } from './errors/scheduler-error.js';
export { runScheduled, type AdmitContext, type ScheduleOptions, type ScheduleResult, type WorkContext } from './run-scheduled.js';
export { KeySlots, type KeyLimits } from './key-slots.js';
export type { ScheduleCounts, SchedulerEvent, StopCause } from './scheduler-event.js';
export type { ScheduledOutcome } from './scheduled-outcome.js';
export {
  AutoConcurrency,
  DEFAULT_MEMORY_FLOOR_BYTES,
  DEFAULT_MEMORY_PER_ITEM_BYTES,
  type AutoConcurrencyOptions,
  type CreateReport,
  type HoldReason,
} from './auto-concurrency.js';
export { abortableDelay } from './abortable-delay.js';
