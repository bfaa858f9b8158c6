import type { AutoConcurrency } from '@agentbench/scheduler';

/** run.json's `auto`: how -j auto moved and why, so a reader sees where the knee is (or why none was found). */
export interface AutoConcurrencyRecord {
  /** The concurrency beyond which throughput stopped rising while CPU pressure rose; null when none was found. */
  knee: number | null;
  /** The limit at the run's end. */
  limit: number;
  /** Each change of the limit: [seconds into the run, limit]. */
  limits: Array<[number, number]>;
  /** The throughput windows the knee was judged on: seconds into -j auto, mean attempts in flight, attempts finished per minute, share of the window some task waited for a CPU (PSI; null without it). */
  windows: Array<{ at_sec: number; running: number; per_minute: number; cpu_wait: number | null }>;
}

const oneDecimal = (value: number): number => Math.round(value * 10) / 10;

export function autoConcurrencyRecord(auto: AutoConcurrency, limits: Array<[number, number]>): AutoConcurrencyRecord {
  return {
    knee: auto.knee ?? null,
    limit: auto.limit,
    limits,
    windows: auto.windows.map((window) => ({
      at_sec: oneDecimal(window.atMs / 1000),
      running: oneDecimal(window.meanRunning),
      per_minute: oneDecimal(window.perSecond * 60),
      cpu_wait: window.cpuWaitShare === null ? null : Math.round(window.cpuWaitShare * 100) / 100,
    })),
  };
}
