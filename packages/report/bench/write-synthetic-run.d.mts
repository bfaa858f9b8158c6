// Types of write-synthetic-run.mjs, for the unit tests that reuse the generator.
import type { AttemptRecord } from '@agentbench/schemas';

export function syntheticAttemptRecord(index: number, random: () => number, runId?: string): AttemptRecord;
export function writeSyntheticRun(dir: string, count: number, options?: { seed?: number }): Promise<string>;
