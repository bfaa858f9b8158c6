import type { AgentEvent, AgentEventOf } from '@agentbench/schemas';
import type { AgentTrajectory } from './agent-trajectory.js';

export interface TrajectoryEventsOptions {
  /** The attempt's run id, written on every event. */
  runId: string;
  /** The time written on events the stream gave none (ISO 8601): the attempt's end, say. */
  at: string;
  /** With a task id, the events start with `run_started` (task, variant) as our agent loop's do. */
  taskId?: string;
  variant?: string;
  /** The installed agent's version, written in `run_started` for `ab export`. */
  agentVersion?: string;
}

/**
 * The `events.jsonl` lines of an installed agent's trajectory, in the shapes our own agent loop
 * writes, so the HTML timeline, `ab compare`'s first divergent step and the reports read both alike:
 * a model turn is `llm_request_started` + `llm_request_finished` (model, tokens; its text as `text`),
 * a tool call of ours (`run`, `apply_patch`, `read_file`, `list_files`, `search`) is
 * `tool_call_started` + `tool_call_finished` (exit code, `output` excerpt; `agent_tool` names the
 * agent's own tool), a call that changed files is followed by `patch_applied` with `files_changed`.
 * A model turn opens a step, as in our loop; tool calls share the step of the turn that asked for them.
 * Tools with no counterpart of ours (todo lists, web fetches) have no event: our tool names are a
 * closed list that reports branch on. The runner writes `agent_stopped` and `run_finished`: the stop
 * reason is the harness's (the gateway's budgets, the time limit), not the stream's.
 */
export function trajectoryEvents(trajectory: AgentTrajectory, options: TrajectoryEventsOptions): AgentEvent[] {
  const events: AgentEvent[] = [];
  const base = { run_id: options.runId };
  const emit = <TType extends AgentEvent['event_type']>(eventType: TType, payload: AgentEventOf<TType>['payload'], step: number | null, timestamp?: string): void => {
    events.push({ event_type: eventType, timestamp: timestamp ?? options.at, ...base, step, payload } as AgentEvent);
  };
  if (options.taskId !== undefined) emit('run_started', { task_id: options.taskId, variant: options.variant ?? null, agent_format: trajectory.format, session_id: trajectory.sessionId ?? null, agent_version: options.agentVersion ?? null }, null);
  let step = 0;
  for (const item of trajectory.steps) {
    if (item.kind === 'model_turn') {
      step += 1;
      const model = item.model ?? trajectory.model ?? 'unknown';
      const requestId = `turn-${step}`;
      emit('llm_request_started', { model, request_id: requestId }, step, item.timestamp);
      emit(
        'llm_request_finished',
        {
          model,
          request_id: requestId,
          input_tokens: item.usage?.inputTokens ?? null,
          output_tokens: item.usage?.outputTokens ?? null,
          cost_usd: item.usage?.costUsd ?? null,
          ...(item.usage?.cachedTokens === undefined ? {} : { cached_tokens: item.usage.cachedTokens }),
          text: item.text,
          ...(item.reasoning === undefined ? {} : { reasoning: item.reasoning }),
        },
        step,
        item.timestamp,
      );
      continue;
    }
    if (step === 0) step = 1;
    if (item.tool === null) continue;
    const params = item.tool === 'run' && item.command !== undefined ? { command: item.command } : item.arguments;
    emit('tool_call_started', { request_id: item.id, tool: item.tool, params, agent_tool: item.agentTool }, step, item.timestamp);
    if (item.result === undefined) continue;
    const failedWithoutExit = item.result.isError && item.result.exitCode === undefined;
    emit(
      'tool_call_finished',
      {
        request_id: item.id,
        tool: item.tool,
        status: failedWithoutExit ? 'error' : 'success',
        error_kind: null,
        exit_code: item.result.exitCode ?? null,
        output: item.result.output,
        agent_tool: item.agentTool,
        ...(failedWithoutExit ? { message: item.result.output } : {}),
      },
      step,
      item.timestamp,
    );
    if (item.filesChanged !== undefined && item.filesChanged.length > 0) emit('patch_applied', { patch_path: null, files_changed: item.filesChanged }, step, item.timestamp);
  }
  return events;
}
