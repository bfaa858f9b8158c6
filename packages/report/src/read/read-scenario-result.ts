import path from 'node:path';
import { FAILURE_REASONS } from '@agentbench/schemas';
import type { ConversationTurnView, EvaluationView, ReadProblem, ReportRow, TimelineEntry } from '../model/report-model.js';
import { emptyDetail } from '../model/report-model.js';
import type { PreviewLimits } from './preview-limits.js';
import { readJsonFile } from './read-jsonl.js';
import { statusOf } from './row-status.js';
import { previewText } from './text-preview.js';
import { isRecord } from '@agentbench/helpers';

/** Failure reason of a scenario run whose evaluations (judgment) failed. */
export const EVALUATIONS_FAILED = 'EVALUATIONS_FAILED';
/** Failure reason of a scenario run that could not complete, when its error names no FailureReason. */
export const RUN_ERRORED = 'RUN_ERRORED';

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function sumRoles(metrics: Record<string, unknown>, field: string): number | null {
  const perRole = metrics.per_role;
  if (!isRecord(perRole)) return null;
  let total: number | null = null;
  for (const usage of Object.values(perRole)) {
    if (isRecord(usage) && typeof usage[field] === 'number') total = (total ?? 0) + (usage[field] as number);
  }
  return total;
}

/** Whether a parsed JSON value looks like a scenario runner `result.json`. */
export function isScenarioResult(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.schema_version === 'number' && isRecord(value.scenario) && typeof value.status === 'string';
}

function failureReasonOf(result: Record<string, unknown>): string | null {
  if (result.passed === true) return null;
  if (result.status !== 'errored') return EVALUATIONS_FAILED;
  const errors = Array.isArray(result.errors) ? result.errors : [];
  const kind = isRecord(errors[0]) ? errors[0].kind : undefined;
  return typeof kind === 'string' && (FAILURE_REASONS as readonly string[]).includes(kind) ? kind : RUN_ERRORED;
}

/**
 * One scenario run (`result.json`) as a report row: the conversation turns (user and agent side
 * by side), the trajectory as the timeline, every evaluation with the judge's reasoning, the judgment.
 */
export async function readScenarioResult(file: string, options: { id: string; sourceId: string; limits: PreviewLimits; problems: ReadProblem[] }): Promise<ReportRow | undefined> {
  const { limits, problems } = options;
  const value = await readJsonFile(file, problems);
  if (value === undefined) return undefined;
  if (!isScenarioResult(value)) {
    // Other tools write result.json too: say so once, without failing the report.
    problems.push({ file, message: 'not a scenario result (expected schema_version, scenario and status); skipped' });
    return undefined;
  }
  const scenario = value.scenario as Record<string, unknown>;
  const parameters = isRecord(value.parameters) ? value.parameters : {};
  const models = isRecord(parameters.models) ? parameters.models : {};
  const matrix = isRecord(parameters.matrix) ? parameters.matrix : undefined;
  const metrics = isRecord(value.metrics) ? value.metrics : {};
  const passed = value.passed === true && value.status === 'passed';
  const failureReason = failureReasonOf(value);
  const detail = emptyDetail();

  const timeline: TimelineEntry[] = [];
  for (const entry of Array.isArray(value.trajectory) ? value.trajectory : []) {
    if (!isRecord(entry) || typeof entry.type !== 'string') continue;
    const kind = entry.type === 'thought' || entry.type === 'action' || entry.type === 'observation' ? entry.type : 'note';
    const turn = typeof entry.turn === 'number' ? `turn ${entry.turn}: ` : '';
    const item: TimelineEntry = {
      kind,
      step: typeof entry.step === 'number' ? entry.step : null,
      title: `${turn}${entry.type}${typeof entry.name === 'string' ? ` ${entry.name}` : ''}`,
      output: previewText(text(entry.content), limits.outputCharacters),
      isError: entry.success === false,
      links: [],
    };
    if (typeof entry.timestamp === 'string') item.at = entry.timestamp;
    timeline.push(item);
  }
  const kept = timeline.slice(0, limits.timelineEntries);
  detail.timeline = kept;
  detail.omittedTimelineEntries = timeline.length - kept.length;

  for (const step of Array.isArray(value.steps) ? value.steps : []) {
    if (!isRecord(step) || !isRecord(step.conversation) || !Array.isArray(step.conversation.turns)) continue;
    for (const turn of step.conversation.turns) {
      if (!isRecord(turn)) continue;
      const view: ConversationTurnView = {
        turn: typeof turn.turn === 'number' ? turn.turn : detail.conversation.length + 1,
        user: previewText(text(turn.user_input), limits.messageCharacters).text,
        agent: previewText(text(turn.agent_response), limits.messageCharacters).text,
      };
      if (typeof turn.duration_ms === 'number') view.durationMs = turn.duration_ms;
      if (typeof turn.error === 'string') view.error = turn.error;
      detail.conversation.push(view);
    }
    if (typeof step.conversation.termination_reason === 'string') detail.notes.push(`conversation ended: ${step.conversation.termination_reason}`);
  }

  for (const evaluation of Array.isArray(value.evaluations) ? value.evaluations : []) {
    if (!isRecord(evaluation)) continue;
    const view: EvaluationView = { type: text(evaluation.type), success: evaluation.success === true, message: text(evaluation.message) };
    if (typeof evaluation.phase === 'string') view.phase = evaluation.phase;
    if (typeof evaluation.turn === 'number') view.turn = evaluation.turn;
    if (typeof evaluation.description === 'string') view.description = evaluation.description;
    if (typeof evaluation.score === 'number') view.score = evaluation.score;
    if (typeof evaluation.error === 'string') view.error = evaluation.error;
    if (isRecord(evaluation.details)) {
      const reasoning = evaluation.details.reasoning ?? evaluation.details.reason ?? evaluation.details.explanation;
      if (typeof reasoning === 'string') view.reasoning = previewText(reasoning, limits.messageCharacters).text;
    }
    if (evaluation.details !== undefined && evaluation.details !== null) view.details = previewText(JSON.stringify(evaluation.details, null, 1), limits.outputCharacters);
    detail.evaluations.push(view);
  }
  if (isRecord(value.judgment)) {
    detail.judgment = {
      strategy: text(value.judgment.strategy),
      passed: value.judgment.passed === true,
      score: numberOrNull(value.judgment.score) ?? 0,
      reason: text(value.judgment.reason),
    };
    detail.message = detail.judgment.reason;
  }
  if (typeof value.final_response === 'string' && value.final_response !== '') detail.finalResponse = previewText(value.final_response, limits.messageCharacters);
  for (const error of Array.isArray(value.errors) ? value.errors : []) {
    if (isRecord(error)) detail.errors.push(`${text(error.stage)}: ${text(error.message)}`);
  }
  // An errored run is explained by its first error, not by a judgment it never reached.
  if (value.status === 'errored' && detail.errors[0] !== undefined) detail.message = detail.errors[0];
  for (const warning of Array.isArray(value.warnings) ? value.warnings : []) detail.errors.push(`warning: ${text(warning)}`);
  detail.logs = [{ label: 'result.json', file }];

  const inputTokens = sumRoles(metrics, 'input_tokens');
  const outputTokens = sumRoles(metrics, 'output_tokens');
  const actions = kept.filter((entry) => entry.kind === 'action').length + (timeline.length - kept.length);
  return {
    id: options.id,
    sourceId: options.sourceId,
    kind: 'scenario',
    taskId: text(scenario.name) || path.basename(path.dirname(file)),
    suite: typeof scenario.file === 'string' ? path.basename(scenario.file) : null,
    model: typeof models.agent === 'string' ? models.agent : null,
    variant: typeof parameters.agent === 'string' ? parameters.agent : null,
    status: value.status === 'errored' ? 'errored' : statusOf(passed, failureReason) === 'passed' ? 'passed' : 'failed',
    passed,
    failureReason,
    stopReason: null,
    durationSec: typeof metrics.execution_time_ms === 'number' ? metrics.execution_time_ms / 1000 : null,
    steps: actions,
    inputTokens,
    outputTokens,
    costUsd: sumRoles(metrics, 'cost_usd'),
    startedAt: typeof value.started_at === 'string' ? value.started_at : null,
    combination: matrix === undefined ? null : `${text(matrix.combination)}${typeof matrix.repeat === 'number' ? ` #${matrix.repeat}` : ''}`,
    folder: path.dirname(file),
    detail,
  };
}
