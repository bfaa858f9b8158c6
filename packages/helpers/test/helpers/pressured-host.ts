import type { CpuPressure } from '../../src/host-cpu.js';

/**
 * A host whose CPU pressure (PSI) and clock a test moves: `waitedMs` of the `elapsedMs` that pass had
 * a task waiting for a CPU. The pool's idle-capacity tests and -j auto's share it.
 */
export class PressuredHost {
  waitedMicros = 0;
  nowMs = 0;
  avg10Percent = 0;
  pass(elapsedMs: number, waitedMs: number): void {
    this.nowMs += elapsedMs;
    this.waitedMicros += waitedMs * 1000;
  }
  read = (): CpuPressure => ({ waitedMicros: this.waitedMicros, avg10Percent: this.avg10Percent });
  clock = (): number => this.nowMs;
}
