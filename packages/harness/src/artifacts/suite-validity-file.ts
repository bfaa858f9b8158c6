import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { TaskValiditySchema, type SuiteValidity, type TaskValidity } from '@agentbench/schemas';
import { writeJsonAtomic } from '@agentbench/helpers';

export const SUITE_VALIDITY_FILE = 'validity.json';

/** The folder of a task's validity runs inside a suite run. */
export function taskValidityFolder(runDir: string, taskId: string): string {
  return path.join(runDir, 'validity', taskId);
}

export const TASK_VALIDITY_FILE = 'task-validity.json';

/** A task's validity as written by `checkTaskValidity`, or `not_checked` when it has none (a task finished before a resume). */
async function readTaskValidity(runDir: string, taskId: string, runs: number): Promise<TaskValidity> {
  const file = path.join(taskValidityFolder(runDir, taskId), TASK_VALIDITY_FILE);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const parsed = text === undefined ? undefined : v.safeParse(TaskValiditySchema, JSON.parse(text));
  if (parsed?.success === true) return parsed.output;
  return {
    task_id: taskId,
    verdict: 'not_checked',
    runs,
    has_oracle: false,
    oracle_passes: 0,
    oracle_runs: 0,
    baseline_failures: 0,
    baseline_runs: 0,
    errored_runs: 0,
    reasons: [],
    run_folders: [],
    message: 'no validity runs were recorded for this task',
  };
}

/**
 * Gathers the tasks' validity files into the run's `validity.json` (`K of M tasks valid`). Read
 * back from disk, not from memory, so a resumed run's summary covers the tasks of every session.
 */
export async function writeSuiteValidity(options: { runDir: string; runId: string; runs: number; taskIds: readonly string[] }): Promise<SuiteValidity> {
  const tasks: TaskValidity[] = [];
  for (const taskId of options.taskIds) tasks.push(await readTaskValidity(options.runDir, taskId, options.runs));
  const validity: SuiteValidity = {
    run_id: options.runId,
    oracle_runs: options.runs,
    written_at: new Date().toISOString(),
    valid: tasks.filter((task) => task.verdict === 'valid').length,
    total: tasks.length,
    tasks,
  };
  await writeJsonAtomic(path.join(options.runDir, SUITE_VALIDITY_FILE), validity);
  return validity;
}

/** `K of M tasks valid`, then one line per task that is not. */
export function formatSuiteValidity(validity: SuiteValidity): string {
  const lines = [`${validity.valid} of ${validity.total} tasks valid (baseline fails every time, oracle passes every time; ${validity.oracle_runs} run${validity.oracle_runs === 1 ? '' : 's'} of each)`];
  for (const task of validity.tasks) {
    if (task.verdict === 'valid') continue;
    const reasons = task.reasons.length === 0 ? '' : ` (${task.reasons.slice(0, 4).join('; ')}${task.reasons.length > 4 ? `; ${task.reasons.length - 4} more` : ''})`;
    lines.push(`  ${task.task_id}: ${task.verdict.replaceAll('_', '-')}: ${task.message}${reasons}`);
  }
  return `${lines.join('\n')}\n`;
}
