import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { AgentEventSchema, checkArtifact, type AgentEvent } from '@agentbench/schemas';
import type { FileLink, ReadProblem, TimelineEntry } from '../model/report-model.js';
import type { LlmTranscript } from './llm-messages.js';
import type { PreviewLimits } from './preview-limits.js';
import { problemReporter, readJsonLines } from './read-jsonl.js';
import { previewFile, previewText } from './text-preview.js';

/** What events.jsonl says about the run as a whole (for runs without an AttemptRecord). */
export interface EventRunSummary {
  runId?: string;
  taskId?: string;
  variant?: string;
  startedAt?: string;
  finished?: AgentEventOfPayload<'run_finished'>;
  finishedAt?: string;
  models: string[];
}

type AgentEventOfPayload<TType extends AgentEvent['event_type']> = Extract<AgentEvent, { event_type: TType }>['payload'];

export interface AgentRunTimeline {
  entries: TimelineEntry[];
  summary: EventRunSummary;
}

function stepLabel(step: number | null | undefined): string {
  return String(step ?? 0).padStart(4, '0');
}

function formatArguments(tool: string, params: Record<string, unknown> | null | undefined): string {
  if (params === null || params === undefined) return '';
  // A patch or a command reads better as itself than as an escaped JSON string.
  if (tool === 'apply_patch' && typeof params.unified_diff === 'string') return params.unified_diff;
  if (tool === 'run' && typeof params.command === 'string') {
    const rest = Object.fromEntries(Object.entries(params).filter(([key]) => key !== 'command'));
    return Object.keys(rest).length === 0 ? params.command : `${params.command}\n${JSON.stringify(rest)}`;
  }
  return JSON.stringify(params, null, 1);
}

function seconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Files of a folder whose names start with `prefix`, sorted; empty when it is missing. */
async function filesStartingWith(folder: string, prefix: string): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((name) => name.startsWith(prefix)).sort().map((name) => path.join(folder, name));
}

/**
 * Turns `events.jsonl` into timeline entries: each tool call with its arguments, output (from
 * the LLM transcript, or the run tool's log) and duration; LLM turns with their answer;
 * test runs with their log; patches; the stop. Lines that are not valid events are reported.
 */
export async function readAgentRunTimeline(
  eventsFile: string,
  options: { runFolder: string; transcript?: LlmTranscript; limits: PreviewLimits; problems: ReadProblem[] },
): Promise<AgentRunTimeline | undefined> {
  const { limits, problems, transcript, runFolder } = options;
  const lines = await readJsonLines(eventsFile, problems);
  if (lines === undefined) return undefined;
  const reporter = problemReporter(eventsFile, problems);
  const entries: TimelineEntry[] = [];
  const pendingTools = new Map<string, TimelineEntry>();
  const pendingTests: TimelineEntry[] = [];
  const summary: EventRunSummary = { models: [] };
  let answerIndex = 0;
  const logsFolder = path.join(runFolder, 'logs');
  const resolve = (file: string): string => (path.isAbsolute(file) ? file : path.join(runFolder, file));

  for (const { value, line } of lines) {
    const checked = checkArtifact(AgentEventSchema, value, 'a valid event');
    if (!checked.success) {
      reporter.add(line, `${checked.message}; skipped`);
      continue;
    }
    const event = checked.output;
    const step = event.step ?? null;
    summary.runId ??= event.run_id;
    switch (event.event_type) {
      case 'run_started':
        summary.taskId = event.payload.task_id;
        if (typeof event.payload.variant === 'string') summary.variant = event.payload.variant;
        summary.startedAt = event.timestamp;
        entries.push({ kind: 'note', step, title: `run started${event.payload.variant ? ` (${event.payload.variant})` : ''}`, at: event.timestamp, links: [] });
        break;
      case 'tool_call_started': {
        const entry: TimelineEntry = {
          kind: 'tool',
          step,
          title: event.payload.tool,
          at: event.timestamp,
          input: previewText(formatArguments(event.payload.tool, event.payload.params), limits.inputCharacters),
          links: [],
        };
        pendingTools.set(event.payload.request_id, entry);
        entries.push(entry);
        break;
      }
      case 'tool_call_finished': {
        const entry = pendingTools.get(event.payload.request_id);
        if (entry === undefined) break;
        pendingTools.delete(event.payload.request_id);
        entry.durationSec = seconds(event.payload.duration_sec);
        entry.isError = event.payload.status === 'error';
        const exitCode = event.payload.exit_code;
        if (typeof exitCode === 'number') entry.title = `${entry.title} (exit ${exitCode})`;
        const message = (event.payload as Record<string, unknown>).message;
        const fromTranscript = transcript?.toolOutputs.get(event.payload.request_id);
        if (fromTranscript !== undefined) entry.output = previewText(fromTranscript, limits.outputCharacters);
        // An installed agent's events carry the call's output themselves (it has no transcript of ours).
        const ownOutput = (event.payload as Record<string, unknown>).output;
        if (entry.output === undefined && typeof ownOutput === 'string') entry.output = previewText(ownOutput, limits.outputCharacters);
        if (event.payload.tool === 'run') {
          const logs = await filesStartingWith(logsFolder, `tool_step_${stepLabel(step)}_`);
          entry.links.push(...logs.map((file): FileLink => ({ label: path.basename(file), file })));
          // The sandbox's command log (`tool_step_NNNN_run.log`), or the stdout file of runs from before it.
          const stdout = logs.find((file) => file.endsWith('_run.log')) ?? logs.find((file) => file.includes('_stdout'));
          if (entry.output === undefined && stdout !== undefined) entry.output = await previewFile(stdout, limits.outputCharacters);
        }
        if (entry.isError) {
          const errorText = `${event.payload.error_kind ?? 'error'}${typeof message === 'string' ? `: ${message}` : ''}`;
          entry.title = `${entry.title}: ${event.payload.error_kind ?? 'error'}`;
          if (entry.output === undefined) entry.output = previewText(errorText, limits.outputCharacters);
        }
        break;
      }
      case 'tests_started': {
        const entry: TimelineEntry = { kind: 'tests', step, title: 'tests', at: event.timestamp, input: previewText(event.payload.command, limits.inputCharacters), links: [] };
        const trigger = (event.payload as Record<string, unknown>).trigger;
        if (typeof trigger === 'string') entry.title = `tests (${trigger.replaceAll('_', ' ')})`;
        pendingTests.push(entry);
        entries.push(entry);
        break;
      }
      case 'tests_finished': {
        const entry = pendingTests.shift();
        if (entry === undefined) break;
        entry.durationSec = seconds(event.payload.duration_sec);
        entry.isError = !event.payload.passed;
        entry.title = `${entry.title}: ${event.payload.passed ? 'passed' : event.payload.timed_out ? 'timed out' : `failed (exit ${event.payload.exit_code})`}`;
        const logPath = (event.payload as Record<string, unknown>).log_path;
        if (typeof logPath === 'string') {
          const file = resolve(logPath);
          entry.links.push({ label: path.basename(file), file });
          entry.output = await previewFile(file, limits.outputCharacters);
        }
        break;
      }
      case 'patch_applied': {
        const files = event.payload.files_changed ?? [];
        const entry: TimelineEntry = { kind: 'patch', step, title: `patch applied${files.length > 0 ? `: ${files.join(', ')}` : ''}`, at: event.timestamp, links: [] };
        if (typeof event.payload.patch_path === 'string') {
          const file = resolve(event.payload.patch_path);
          entry.links.push({ label: path.basename(file), file });
        }
        entries.push(entry);
        break;
      }
      case 'llm_request_started':
        if (!summary.models.includes(event.payload.model)) summary.models.push(event.payload.model);
        break;
      case 'llm_request_finished': {
        const tokens = [event.payload.input_tokens, event.payload.output_tokens].every((count) => typeof count === 'number')
          ? `, ${event.payload.input_tokens} in / ${event.payload.output_tokens} out tokens`
          : '';
        const cost = typeof event.payload.cost_usd === 'number' ? `, $${event.payload.cost_usd.toFixed(4)}` : '';
        const entry: TimelineEntry = { kind: 'llm', step, title: `LLM ${event.payload.model}${tokens}${cost}`, at: event.timestamp, durationSec: seconds(event.payload.duration_sec), links: [] };
        const answer = transcript?.answers[answerIndex];
        answerIndex += 1;
        const ownText = (event.payload as Record<string, unknown>).text;
        if (answer !== undefined) entry.output = previewText(answer.text, limits.outputCharacters);
        else if (typeof ownText === 'string' && ownText !== '') entry.output = previewText(ownText, limits.outputCharacters);
        entries.push(entry);
        break;
      }
      case 'llm_request_failed':
        entries.push({
          kind: 'llm',
          step,
          title: `LLM request failed: ${event.payload.error_type}${event.payload.is_retryable ? ' (retried)' : ''}`,
          at: event.timestamp,
          isError: true,
          output: previewText(event.payload.message, limits.outputCharacters),
          links: [],
        });
        break;
      case 'agent_stopped':
        entries.push({
          kind: 'stop',
          step,
          title: `stopped: ${event.payload.stop_reason}`,
          at: event.timestamp,
          isError: event.payload.stop_reason !== 'SUCCESS',
          ...(typeof event.payload.message === 'string' ? { output: previewText(event.payload.message, limits.outputCharacters) } : {}),
          links: [],
        });
        break;
      case 'run_finished':
        summary.finished = event.payload;
        summary.finishedAt = event.timestamp;
        break;
    }
  }
  reporter.finish();
  return { entries, summary };
}
