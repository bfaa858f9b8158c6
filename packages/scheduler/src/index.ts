// The public surface: the one scheduler (runScheduled) with its options, events and result, automatic
// concurrency, and the error. Key slots, the memory defaults and the counts' shape are internal.
export { SchedulerError } from './errors/scheduler-error.js';
export { runScheduled, type ScheduleOptions, type ScheduleResult, type WorkContext } from './run-scheduled.js';
export type { SchedulerEvent, StopCause } from './scheduler-event.js';
export type { ScheduledOutcome } from './scheduled-outcome.js';
export { AutoConcurrency, type AutoConcurrencyOptions, type HoldReason } from './auto-concurrency.js';
export { abortableDelay } from './abortable-delay.js';
export { runEfficiency } from './run-efficiency.js';
