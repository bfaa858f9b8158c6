/**
 * A host whose CPU never looks saturated for `AutoConcurrency` (no CPU pressure (PSI) known, no run queue
 * known, CPU counters that do not move). A machine running the tests is busy, and -j auto holds new starts while it is: tests about how -j auto
 * grows spread this into its options so the host reads as idle. The scheduler's tests and the harness's run
 * tests share it.
 */
export const quietHost = { readCpuPressure: () => undefined, readRunQueue: () => undefined, readCpuTimes: () => ({ idle: 0, total: 0 }) };
