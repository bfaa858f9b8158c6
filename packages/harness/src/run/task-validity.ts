import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { RunRecordSchema, SuiteValiditySchema, type AttemptRecord, type LoadedTask, type RunPlan, type TaskValidityNote } from '@agentbench/schemas';
import { readAttemptRecords } from '../artifacts/attempts-file.js';
import { SUITE_VALIDITY_FILE } from '../artifacts/suite-validity-file.js';
import { isInfraFailure } from './attempt-tries.js';

/** What a validate-suite run showed of a task: its baseline failed as expected (`valid`), or not (`unverified`, and why). */
export interface KnownValidity {
  status: 'valid' | 'unverified';
  /** Why it is unverified: a failure reason (`BASELINE_NOT_FAILING`) or an oracle verdict (`baseline_passes`). */
  reason?: string;
  /** The file it was read from. */
  source: string;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The validate-suite runs (run.json kind `suite_baseline`) under `runsDir`, newest first. */
async function suiteBaselineRuns(runsDir: string): Promise<Array<{ dir: string; suite: string | null; createdAt: string }>> {
  const names = await readdir(runsDir).catch(() => [] as string[]);
  const runs: Array<{ dir: string; suite: string | null; createdAt: string }> = [];
  for (const name of names) {
    const dir = path.join(runsDir, name);
    const parsed = v.safeParse(RunRecordSchema, await readJson(path.join(dir, 'run.json')));
    if (parsed.success && parsed.output.kind === 'suite_baseline') runs.push({ dir, suite: parsed.output.suite ?? null, createdAt: parsed.output.created_at });
  }
  return runs.sort((left, right) => right.createdAt.localeCompare(left.createdAt));
}

/** A task's validity from a validate-suite run's record of it; undefined when the run could not judge it (infrastructure, an interruption). */
function validityOfRecord(record: AttemptRecord, source: string): KnownValidity | undefined {
  if (!record.baseline_validation.attempted || isInfraFailure(record) || record.result.failure_reason === 'INTERRUPTED') return undefined;
  if (record.baseline_validation.failed_as_expected) return { status: 'valid', source };
  return { status: 'unverified', reason: record.baseline_validation.failure_reason ?? record.result.failure_reason ?? 'baseline not shown to fail', source };
}

/**
 * Each task's validity from the latest `ab validate-suite` run of its suite under `runsDir` that
 * judged it: its `validity.json` (with --oracle-runs) first, else its baseline records
 * (attempts.jsonl). Tasks no run judged are left out (never validated). Read only: unreadable
 * folders are passed over.
 */
export async function readKnownValidity(runsDir: string, tasks: readonly LoadedTask[]): Promise<Map<string, KnownValidity>> {
  const known = new Map<string, KnownValidity>();
  for (const run of await suiteBaselineRuns(runsDir)) {
    const open = new Set(tasks.filter((loaded) => loaded.task.suite === run.suite && !known.has(loaded.task.id)).map((loaded) => loaded.task.id));
    if (open.size === 0) continue;
    const validityFile = path.join(run.dir, SUITE_VALIDITY_FILE);
    const validity = v.safeParse(SuiteValiditySchema, await readJson(validityFile));
    if (validity.success) {
      for (const task of validity.output.tasks) {
        if (!open.has(task.task_id) || task.verdict === 'not_checked' || task.verdict === 'errored') continue;
        known.set(task.task_id, task.verdict === 'valid' ? { status: 'valid', source: validityFile } : { status: 'unverified', reason: task.verdict.replaceAll('_', '-'), source: validityFile });
        open.delete(task.task_id);
      }
    }
    const attemptsFile = path.join(run.dir, 'attempts.jsonl');
    const records = await readAttemptRecords(attemptsFile).then((content) => content.records, () => []);
    const latest = new Map<string, AttemptRecord>();
    for (const record of records) if (open.has(record.task_id)) latest.set(record.task_id, record);
    for (const [taskId, record] of latest) {
      const judged = validityOfRecord(record, attemptsFile);
      if (judged !== undefined) known.set(taskId, judged);
    }
  }
  return known;
}

/**
 * What an attempt's record says of its task's validity: its own baseline when it validated one
 * (`--validate-baseline`), else what validate-suite showed, else `unvalidated`. An unverified task's
 * attempts are left out of pass rates (`counted: false`) unless the plan includes them.
 */
export function taskValidityNote(record: AttemptRecord, known: KnownValidity | undefined, plan: Pick<RunPlan, 'skip_baseline' | 'include_unvalidated'>): TaskValidityNote {
  const own = plan.skip_baseline ? undefined : validityOfRecord(record, '--validate-baseline');
  const validity = own ?? known;
  if (validity === undefined) return { status: 'unvalidated', counted: true };
  return {
    status: validity.status,
    ...(validity.reason === undefined ? {} : { reason: validity.reason }),
    source: validity.source,
    counted: validity.status === 'valid' || plan.include_unvalidated === true,
  };
}

/** The warnings `ab run` prints before it starts: each unverified task, and the tasks never validated. */
export function validityWarnings(tasks: readonly LoadedTask[], known: ReadonlyMap<string, KnownValidity>, plan: Pick<RunPlan, 'skip_baseline' | 'include_unvalidated'>): string[] {
  const warnings: string[] = [];
  for (const loaded of tasks) {
    const validity = known.get(loaded.task.id);
    if (validity?.status !== 'unverified') continue;
    const counting = plan.include_unvalidated === true ? 'counted in pass rates (--include-unvalidated)' : 'left out of pass rates (--include-unvalidated counts them)';
    warnings.push(`${loaded.task.id}: baseline not shown to fail (${validity.reason ?? 'unverified'}, in ${validity.source}): its attempts are marked "unverified task" and ${counting}`);
  }
  if (plan.skip_baseline) {
    const never = tasks.filter((loaded) => !known.has(loaded.task.id));
    if (never.length > 0) {
      const suites = [...new Set(never.map((loaded) => loaded.task.suite))];
      warnings.push(
        `${never.length} task${never.length === 1 ? '' : 's'} never validated (${never.map((loaded) => loaded.task.id).join(', ')}): reported as unvalidated; validate first with ${suites.map((suite) => `ab validate-suite --suite ${suite}`).join(' and ')}, or run with --validate-baseline`,
      );
    }
  }
  return warnings;
}
