import { open, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunRecord } from '@agentbench/schemas';
import { ATTEMPTS_FILE } from './drive-run.js';

/** Runs read, newest first: enough for a stable median, few enough that a folder of old runs costs nothing. */
const RUNS_READ = 20;
/** Bytes read from the end of each attempts.jsonl: a hint is not worth reading a huge file whole. */
const TAIL_BYTES = 4 * 1024 * 1024;

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The last `TAIL_BYTES` of a file, from its first whole line on; empty when it cannot be read. */
async function readTail(file: string): Promise<string> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (handle === undefined) return '';
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
  } catch {
    return '';
  } finally {
    await handle.close();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** A record's task and duration, when the line is one whose duration says how long the task takes. */
function durationOfLine(line: string): { taskId: string; seconds: number } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { task_id?: unknown; duration_sec?: unknown; failure_class?: unknown; result?: { failure_reason?: unknown } };
  if (typeof record.task_id !== 'string' || typeof record.duration_sec !== 'number' || !Number.isFinite(record.duration_sec) || record.duration_sec < 0) return undefined;
  // A try cut short by the machine or by a stop says nothing of the task's length.
  if (record.failure_class === 'infra' || record.result?.failure_reason === 'INTERRUPTED') return undefined;
  return { taskId: record.task_id, seconds: record.duration_sec };
}

/**
 * Attempts in flight a run allowed (run.json `options.concurrency`; -j auto: its `max_jobs`), the
 * contention its durations were measured under; unknown counts as the most.
 */
function concurrencyOf(options: unknown): number {
  const { concurrency, max_jobs: maxJobs } = (typeof options === 'object' && options !== null ? options : {}) as { concurrency?: unknown; max_jobs?: unknown };
  if (typeof concurrency === 'number' && concurrency >= 1) return concurrency;
  return typeof maxJobs === 'number' && maxJobs >= 1 ? maxJobs : Number.POSITIVE_INFINITY;
}

/**
 * How long each task took in the earlier runs of this kind under `runsDir` (run.json `kind`): the
 * median `duration_sec` of its records over the newest 20 such runs, for the tasks named, taken from
 * the runs of the lowest concurrency that have the task. A duration measured beside other attempts
 * is stretched by their contention, and unevenly: a CPU-bound task's by the attempts it shared the
 * cores with, a latency-bound one's (a sleep, a timeout, an LLM's answers) hardly at all, so the
 * least contended measure ranks tasks by their own length (docs/decisions.md, issue 26).
 * A hint for the order attempts start in, so it never fails: unreadable folders and lines that
 * are not records are passed over, and only the last 4 MiB of each attempts.jsonl is read.
 */
export async function readPastAttemptDurations(runsDir: string, kind: RunRecord['kind'], taskIds: readonly string[]): Promise<Map<string, number>> {
  const wanted = new Set(taskIds);
  const runs: Array<{ dir: string; createdAt: string; concurrency: number }> = [];
  for (const name of await readdir(runsDir).catch(() => [] as string[])) {
    const dir = path.join(runsDir, name);
    const run = (await readJson(path.join(dir, 'run.json'))) as { kind?: unknown; created_at?: unknown; options?: unknown } | undefined;
    if (run?.kind === kind && typeof run.created_at === 'string') runs.push({ dir, createdAt: run.created_at, concurrency: concurrencyOf(run.options) });
  }
  runs.sort((left, right) => right.createdAt.localeCompare(left.createdAt));
  // Per task: the lowest concurrency it was seen at, and its durations there.
  const seen = new Map<string, { concurrency: number; seconds: number[] }>();
  for (const run of runs.slice(0, RUNS_READ)) {
    for (const line of (await readTail(path.join(run.dir, ATTEMPTS_FILE))).split('\n')) {
      const duration = line.trim() === '' ? undefined : durationOfLine(line);
      if (duration === undefined || !wanted.has(duration.taskId)) continue;
      const known = seen.get(duration.taskId);
      if (known === undefined || run.concurrency < known.concurrency) seen.set(duration.taskId, { concurrency: run.concurrency, seconds: [duration.seconds] });
      else if (run.concurrency === known.concurrency) known.seconds.push(duration.seconds);
    }
  }
  return new Map([...seen].map(([taskId, { seconds }]) => [taskId, median(seconds)]));
}
