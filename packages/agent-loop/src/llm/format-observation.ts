import type { ToolResult } from '@agentbench/schemas';
import type { Observation, ToolHistoryEntry } from '../contract/agent.js';
import { isRecord } from '@agentbench/helpers';

export interface ObservationFormat {
  /** Tool calls shown, most recent last. Default 8. */
  historyWindow: number;
  /** Characters kept of each result of the previous action. Default 8000. */
  latestResultChars: number;
  /** Characters kept of each older result. Default 1500. */
  olderResultChars: number;
  /** Characters kept from the end of the last test output. Default 6000. */
  testOutputChars: number;
  /** Characters kept of the issue text (head and tail). Default 8000. */
  problemStatementChars: number;
}

export const DEFAULT_OBSERVATION_FORMAT: Readonly<ObservationFormat> = Object.freeze({
  historyWindow: 8,
  latestResultChars: 8000,
  olderResultChars: 1500,
  testOutputChars: 6000,
  problemStatementChars: 8000,
});

/** Keeps the head and the tail of a long text, saying how much was cut. */
export function headAndTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.4);
  const tail = maxChars - head;
  return `${text.slice(0, head)}\n…[${text.length - maxChars} characters cut]…\n${text.slice(text.length - tail)}`;
}

/** The end of a text (test output: the summary is at the bottom). */
export function tail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `…[${text.length - maxChars} earlier characters cut]…\n${text.slice(text.length - maxChars)}`;
}

/** A tool result as text for the model, whatever shape each tool's `data` has. */
export function formatToolResult(result: ToolResult): string {
  const parts: string[] = [];
  if (result.status === 'error' && result.error) parts.push(`error (${result.error.kind}): ${result.error.message}`);
  if (result.exit_code !== undefined && result.exit_code !== null) parts.push(`exit code: ${result.exit_code}`);
  const data = isRecord(result.data) ? result.data : undefined;
  if (data !== undefined) {
    const shown = new Set<string>();
    for (const key of ['content', 'text', 'output', 'stdout', 'stderr', 'diff', 'summary']) {
      const value = data[key];
      if (typeof value === 'string' && value !== '') {
        parts.push(key === 'content' || key === 'text' ? value : `${key}:\n${value}`);
        shown.add(key);
      }
    }
    for (const key of ['files', 'entries', 'matches', 'files_changed', 'changed_files', 'suggestions']) {
      const value = data[key];
      if (Array.isArray(value)) {
        const lines = value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
        parts.push(`${key} (${value.length}):\n${lines.join('\n')}`);
        shown.add(key);
      }
    }
    const rest = Object.fromEntries(Object.entries(data).filter(([key, value]) => !shown.has(key) && value !== undefined && value !== null));
    if (Object.keys(rest).length > 0) parts.push(JSON.stringify(rest));
  }
  return parts.length > 0 ? parts.join('\n') : result.status;
}

function formatEntry(entry: ToolHistoryEntry, maxChars: number): string {
  const params = JSON.stringify(entry.request.params);
  const header = `## step ${entry.step}: ${entry.request.tool} ${params.length > 300 ? `${params.slice(0, 300)}…` : params} → ${entry.result.status}`;
  return `${header}\n${headAndTail(formatToolResult(entry.result), maxChars)}`;
}

/** The user message of one turn, built from the loop's state: budgets, last tests, patches, recent tool calls. */
export function formatObservation(observation: Observation, options: { format?: Partial<ObservationFormat>; note?: string } = {}): string {
  const format = { ...DEFAULT_OBSERVATION_FORMAT, ...options.format };
  const { budgets, task } = observation;
  const lines: string[] = [];
  lines.push('# Task');
  lines.push(`Fix the failing tests of task ${task.id} (suite ${task.suite}). Paths are relative to the repository root.`);
  lines.push(`Test command (run automatically after each patch): ${task.testCommand}`);
  if (task.problemStatement !== undefined) {
    lines.push('');
    lines.push('# Issue');
    lines.push(headAndTail(task.problemStatement, format.problemStatementChars));
  }
  lines.push('');
  lines.push('# Budgets');
  const budgetParts = [
    `step ${observation.step} of ${budgets.maxSteps} (${budgets.stepsRemaining} tool calls left)`,
    `${Math.floor(budgets.timeRemainingSec)} s of ${budgets.maxTimeSec} s left`,
  ];
  if (budgets.maxTokens !== undefined) budgetParts.push(`${budgets.inputTokens + budgets.outputTokens} of ${budgets.maxTokens} tokens used`);
  if (budgets.maxCostUsd !== undefined) budgetParts.push(`$${(budgets.costUsd ?? 0).toFixed(4)} of $${budgets.maxCostUsd} spent`);
  lines.push(budgetParts.join('; '));
  const tests = observation.lastTestRun;
  if (tests !== undefined) {
    lines.push('');
    lines.push(`# Last test run (step ${tests.step}, ${tests.trigger.replace('_', ' ')}): exit ${tests.exitCode}, ${tests.passed ? 'passed' : tests.timedOut ? 'timed out' : 'failed'}`);
    lines.push(tail(tests.output.trimEnd(), format.testOutputChars));
  }
  if (observation.patches.length > 0) {
    lines.push('');
    lines.push('# Patches applied so far');
    for (const patch of observation.patches.slice(-10)) {
      lines.push(`- step ${patch.step}: ${patch.filesChanged.length > 0 ? patch.filesChanged.join(', ') : '(files not reported)'}`);
    }
  }
  const history = observation.history;
  if (history.length > 0) {
    const shown = history.slice(-format.historyWindow);
    const latest = new Set(observation.lastResults.map((entry) => entry.request.request_id));
    lines.push('');
    lines.push(`# Recent tool calls (${shown.length} of ${history.length}, oldest first)`);
    for (const entry of shown) {
      lines.push(formatEntry(entry, latest.has(entry.request.request_id) ? format.latestResultChars : format.olderResultChars));
    }
  }
  if (options.note !== undefined && options.note.trim() !== '') {
    lines.push('');
    lines.push('# Your previous note');
    lines.push(headAndTail(options.note.trim(), 2000));
  }
  lines.push('');
  lines.push('Decide the next tool call(s).');
  return lines.join('\n');
}
