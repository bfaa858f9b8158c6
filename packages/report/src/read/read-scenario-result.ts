import path from 'node:path';
import { checkArtifact, FAILURE_REASONS, ScenarioRunResultSchema, type ScenarioRunResult } from '@agentbench/schemas';
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

function sumRoles(metrics: ScenarioRunResult['metrics'], field: 'input_tokens' | 'output_tokens' | 'cost_usd'): number | null {
  let total: number | null = null;
  for (const usage of Object.values(metrics.per_role)) {
    const value = usage[field];
    if (value !== undefined) total = (total ?? 0) + value;
  }
  return total;
}

function failureReasonOf(result: ScenarioRunResult): string | null {
  if (result.passed) return null;
  if (result.status !== 'errored') return EVALUATIONS_FAILED;
  const kind = result.errors[0]?.kind;
  return kind !== undefined && (FAILURE_REASONS as readonly string[]).includes(kind) ? kind : RUN_ERRORED;
}

/**
 * One scenario run (`result.json`, read through its schema) as a report row: the conversation turns
 * (user and agent side by side), the trajectory as the timeline, every evaluation with the judge's
 * reasoning, the judgment. A file that is not a scenario result is a problem, and no row.
 */
export async function scenarioResultRow(file: string, options: { id: string; sourceId: string; limits: PreviewLimits; problems: ReadProblem[] }): Promise<ReportRow | undefined> {
  const { limits, problems } = options;
  const value = await readJsonFile(file, problems);
  if (value === undefined) return undefined;
  const checked = checkArtifact(ScenarioRunResultSchema, value, 'a scenario run result');
  if (!checked.success) {
    // Other tools write result.json too: say so once, without failing the report.
    problems.push({ file, message: `${checked.message}; skipped` });
    return undefined;
  }
  const result = checked.output;
  const { scenario, parameters, metrics } = result;
  const matrix = parameters.matrix;
  const passed = result.passed && result.status === 'passed';
  const failureReason = failureReasonOf(result);
  const detail = emptyDetail();

  const timeline: TimelineEntry[] = [];
  for (const entry of result.trajectory) {
    const turn = entry.turn === undefined ? '' : `turn ${entry.turn}: `;
    const item: TimelineEntry = {
      kind: entry.type,
      step: entry.step ?? null,
      title: `${turn}${entry.type}${entry.name === undefined ? '' : ` ${entry.name}`}`,
      output: previewText(entry.content, limits.outputCharacters),
      isError: entry.success === false,
      links: [],
    };
    item.at = entry.timestamp;
    timeline.push(item);
  }
  const kept = timeline.slice(0, limits.timelineEntries);
  detail.timeline = kept;
  detail.omittedTimelineEntries = timeline.length - kept.length;

  for (const step of result.steps) {
    if (step.conversation === undefined) continue;
    for (const turn of step.conversation.turns) {
      const view: ConversationTurnView = {
        turn: turn.turn,
        user: previewText(turn.user_input, limits.messageCharacters).text,
        agent: previewText(turn.agent_response, limits.messageCharacters).text,
      };
      view.durationMs = turn.duration_ms;
      if (turn.error !== undefined) view.error = turn.error;
      detail.conversation.push(view);
    }
    if (step.conversation.termination_reason !== null) detail.notes.push(`conversation ended: ${step.conversation.termination_reason}`);
  }

  for (const evaluation of result.evaluations) {
    const view: EvaluationView = { type: evaluation.type, success: evaluation.success, message: evaluation.message };
    view.phase = evaluation.phase;
    if (evaluation.turn !== undefined) view.turn = evaluation.turn;
    if (evaluation.description !== undefined) view.description = evaluation.description;
    if (evaluation.score !== undefined) view.score = evaluation.score;
    if (evaluation.error !== undefined) view.error = evaluation.error;
    // `details` is the evaluator's own: a judge names its reasoning one of three ways.
    if (isRecord(evaluation.details)) {
      const reasoning = evaluation.details.reasoning ?? evaluation.details.reason ?? evaluation.details.explanation;
      if (typeof reasoning === 'string') view.reasoning = previewText(reasoning, limits.messageCharacters).text;
    }
    if (evaluation.details !== undefined && evaluation.details !== null) view.details = previewText(JSON.stringify(evaluation.details, null, 1), limits.outputCharacters);
    detail.evaluations.push(view);
  }
  detail.judgment = { ...result.judgment };
  detail.message = result.judgment.reason;
  if (result.final_response !== '') detail.finalResponse = previewText(result.final_response, limits.messageCharacters);
  for (const error of result.errors) detail.errors.push(`${error.stage}: ${error.message}`);
  // An errored run is explained by its first error, not by a judgment it never reached.
  if (result.status === 'errored' && detail.errors[0] !== undefined) detail.message = detail.errors[0];
  for (const warning of result.warnings) detail.errors.push(`warning: ${warning}`);
  detail.logs = [{ label: 'result.json', file }];

  const actions = kept.filter((entry) => entry.kind === 'action').length + (timeline.length - kept.length);
  return {
    id: options.id,
    sourceId: options.sourceId,
    kind: 'scenario',
    taskId: scenario.name || path.basename(path.dirname(file)),
    suite: path.basename(scenario.file),
    model: parameters.models.agent ?? null,
    variant: parameters.agent,
    status: result.status === 'errored' ? 'errored' : statusOf(passed, failureReason) === 'passed' ? 'passed' : 'failed',
    passed,
    failureReason,
    stopReason: null,
    durationSec: metrics.execution_time_ms / 1000,
    steps: actions,
    inputTokens: sumRoles(metrics, 'input_tokens'),
    outputTokens: sumRoles(metrics, 'output_tokens'),
    costUsd: sumRoles(metrics, 'cost_usd'),
    startedAt: result.started_at,
    combination: matrix === undefined ? null : `${matrix.combination} #${matrix.repeat}`,
    folder: path.dirname(file),
    detail,
  };
}
