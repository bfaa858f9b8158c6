export { SchedulerError } from './errors/scheduler-error.js';
export { runScheduled, type AdmitContext, type ScheduleOptions, type ScheduleResult, type WorkContext } from './run-scheduled.js';
export { KeySlots, type KeyLimits } from './key-slots.js';
export type { ScheduleCounts, SchedulerEvent, StopCause } from './scheduler-event.js';
export type { ScheduledOutcome } from './scheduled-outcome.js';
