import { MESSAGE_EXCERPT_CHARACTERS, outputExcerpt } from '@agentbench/sandbox';
import { formatTable } from '@agentbench/helpers';
import type { SuiteTaskResult, SuiteTaskStatus, ValidateSuiteResult } from './suite-types.js';
import { formatDuration } from '../run/format-duration.js';

const STATUS_LABELS: Record<SuiteTaskStatus, string> = {
  valid: 'VALID',
  invalid: 'INVALID',
  errored: 'ERROR',
  interrupted: 'INTERRUPTED',
  skipped: 'SKIPPED',
  not_run: 'NOT RUN',
};

export function statusLabel(status: SuiteTaskStatus): string {
  return STATUS_LABELS[status];
}

function reasonOf(result: SuiteTaskResult): string {
  if (result.status === 'skipped') return `label: ${(result.skippedBy ?? []).join(', ')}`;
  return result.record?.result.failure_reason ?? '-';
}

function durationOf(result: SuiteTaskResult): string {
  return result.record === undefined ? '-' : formatDuration(result.record.duration_sec * 1000);
}

/**
 * The summary printed at the end of `ab validate-suite`: one row per task (outcome, failure
 * reason, duration, and why when it is not valid), the totals, where the artifacts are, and how
 * to resume an interrupted run.
 */
export function formatSuiteSummary(result: ValidateSuiteResult, options: { suite: string; resumeCommand?: string } = { suite: '' }): string {
  // The detail may quote what the sandbox wrote (output, file names): one escaped line, bounded.
  const detailOf = (task: SuiteTaskResult): string => (task.outcome !== undefined && task.status !== 'valid' ? outputExcerpt(task.outcome.message, { maxCharacters: MESSAGE_EXCERPT_CHARACTERS }) : '');
  const rows = result.tasks.map((task) => [task.taskId, statusLabel(task.status), reasonOf(task), durationOf(task), detailOf(task)]);
  const lines = formatTable(['task', 'outcome', 'failure reason', 'duration', 'detail'], rows);
  const counts = result.runRecord.counts;
  if (counts) {
    const notRun = result.tasks.filter((task) => task.status === 'not_run' || task.status === 'interrupted').length;
    lines.push(
      '',
      `${counts.passed} valid, ${counts.failed} invalid, ${counts.errored ?? 0} errored, ${counts.skipped ?? 0} skipped${notRun > 0 ? `, ${notRun} not finished` : ''} in ${formatDuration(result.durationMs)}`,
    );
  }
  lines.push(`run: ${result.runDir}`);
  // The message may name a file the sandbox wrote: one escaped line each.
  for (const failure of result.workspaceRemovalFailures ?? []) lines.push(`warning: ${outputExcerpt(failure, { maxCharacters: MESSAGE_EXCERPT_CHARACTERS })}`);
  if (result.isInterrupted) {
    lines.push(`interrupted: resume with \`${options.resumeCommand ?? `ab validate-suite ${options.suite} --resume ${result.runDir}`}\``);
  }
  return `${lines.join('\n')}\n`;
}
