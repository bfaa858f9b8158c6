import type { HoldReason } from '@agentbench/scheduler';

/** Where a run stands: what the progress line shows. */
export interface AgentRunProgress {
  /** Attempts of the plan (tasks × models × runs). */
  total: number;
  running: number;
  queued: number;
  /** Attempts with a final try (passed, failed or errored), this session and before a resume. */
  done: number;
  passed: number;
  failed: number;
  /** Attempts whose every try failed on infrastructure: not counted in pass rates. */
  errored: number;
  /** Tries run again after an infrastructure failure. */
  retried: number;
  /** Seconds left at this session's pace; null until an attempt finished in it. */
  etaSec: number | null;
  /** Why `-j auto` holds new starts now, when it does. */
  held?: HoldReason;
}

/** Counts of a run and its ETA (the session's mean time per finished attempt, over what is left). */
export class RunProgressCounter {
  readonly progress: AgentRunProgress;
  #finishedThisSession = 0;
  readonly #startedAt: number;

  constructor(total: number, private readonly now: () => number = Date.now) {
    this.progress = { total, running: 0, queued: 0, done: 0, passed: 0, failed: 0, errored: 0, retried: 0, etaSec: null };
    this.#startedAt = now();
  }

  /** An attempt recorded before this session (a resume). */
  countDone(outcome: 'passed' | 'failed' | 'errored'): void {
    this.progress.done += 1;
    this.progress[outcome] += 1;
  }

  /** An attempt finished its final try in this session. */
  finish(outcome: 'passed' | 'failed' | 'errored'): void {
    this.countDone(outcome);
    this.#finishedThisSession += 1;
    const perAttempt = (this.now() - this.#startedAt) / 1000 / this.#finishedThisSession;
    this.progress.etaSec = Math.round(perAttempt * Math.max(0, this.progress.total - this.progress.done));
  }

  snapshot(): AgentRunProgress {
    return { ...this.progress };
  }
}
