import type { AgentTrajectory, ToolStep, TrajectoryStep, TurnUsage } from '../agent-trajectory.js';
import { TrajectoryError } from '../errors/trajectory-error.js';
import { countOf, isRecord, optionalString, readStreamLines, requiredRecord, requiredString } from './read-stream-lines.js';
import { excerpt, pathLabel, STREAM_LIMITS } from './stream-limits.js';
import { toolCategory } from './tool-categories.js';

export interface StreamParseOptions {
  /** What the stream is called in errors (its file). */
  source?: string;
  /** The agent's working folder inside the sandbox: file paths under it are made relative. */
  workspace?: string;
}

function addUsage(total: TurnUsage | undefined, usage: Record<string, unknown>): TurnUsage {
  const sum: TurnUsage = total ?? { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  sum.inputTokens += countOf(usage.input_tokens) ?? 0;
  sum.outputTokens += countOf(usage.output_tokens) ?? 0;
  sum.cachedTokens = (sum.cachedTokens ?? 0) + (countOf(usage.cached_input_tokens) ?? 0);
  return sum;
}

/**
 * Codex CLI's `codex exec --json` stream (one JSON event a line: `thread.started`, `turn.started`,
 * `item.started`/`item.updated`/`item.completed`, `turn.completed` with usage, `turn.failed`, `error`)
 * as a trajectory: agent messages are model turns, `command_execution` items commands with their exit
 * code and output, `file_change` items the files changed, `mcp_tool_call` items other tools. Codex
 * reports no per-request usage: `mergeGatewayTurns` adds the model turns from the gateway's cassette.
 */
export function parseCodexJson(text: string, options: StreamParseOptions = {}): AgentTrajectory {
  const source = options.source ?? 'codex --json stream';
  const trajectory: AgentTrajectory = { format: 'codex-json', steps: [], isError: false, errors: [] };
  const items = new Map<string, TrajectoryStep>();
  for (const { line, value: event } of readStreamLines(text, source)) {
    const type = requiredString(event, 'type', source, line);
    switch (type) {
      case 'thread.started':
        trajectory.sessionId = optionalString(event, 'thread_id', source, line);
        break;
      case 'turn.completed':
        if (isRecord(event.usage)) trajectory.usage = addUsage(trajectory.usage, event.usage);
        break;
      case 'turn.failed': {
        trajectory.isError = true;
        const error = isRecord(event.error) ? event.error : {};
        trajectory.errors.push(excerpt(typeof error.message === 'string' ? error.message : 'turn failed'));
        break;
      }
      case 'error':
        trajectory.isError = true;
        trajectory.errors.push(excerpt(optionalString(event, 'message', source, line) ?? 'error'));
        break;
      case 'item.started':
      case 'item.updated':
      case 'item.completed': {
        const item = requiredRecord(event, 'item', source, line);
        const id = requiredString(item, 'id', source, line);
        const step = itemStep(item, id, type === 'item.completed', source, line, options.workspace, trajectory);
        if (step === undefined) break;
        const known = items.get(id);
        if (known === undefined) {
          if (trajectory.steps.length >= STREAM_LIMITS.steps) throw new TrajectoryError(source, line, `more than ${STREAM_LIMITS.steps} steps`);
          items.set(id, step);
          trajectory.steps.push(step);
        } else {
          Object.assign(known, step);
        }
        break;
      }
      default:
        // turn.started and event types of later versions carry nothing a step needs.
        break;
    }
  }
  const last = [...trajectory.steps].reverse().find((step) => step.kind === 'model_turn');
  if (last !== undefined && last.kind === 'model_turn') trajectory.finalText = last.text;
  return trajectory;
}

function itemStep(
  item: Record<string, unknown>,
  id: string,
  isCompleted: boolean,
  source: string,
  line: number,
  workspace: string | undefined,
  trajectory: AgentTrajectory,
): TrajectoryStep | undefined {
  const itemType = requiredString(item, 'type', source, line);
  const status = optionalString(item, 'status', source, line);
  switch (itemType) {
    case 'agent_message':
      return { kind: 'model_turn', text: excerpt(optionalString(item, 'text', source, line) ?? '') };
    case 'reasoning':
      return { kind: 'model_turn', text: '', reasoning: excerpt(optionalString(item, 'text', source, line) ?? '') };
    case 'command_execution': {
      const command = pathLabel(requiredString(item, 'command', source, line), undefined);
      const exitCode = item.exit_code;
      if (exitCode !== undefined && exitCode !== null && !Number.isInteger(exitCode)) {
        throw new TrajectoryError(source, line, `item.exit_code: expected a whole number or null, found ${JSON.stringify(exitCode)}`);
      }
      const step: ToolStep = { kind: 'tool', id, agentTool: 'command_execution', tool: toolCategory('command_execution'), arguments: { command }, command };
      if (isCompleted) {
        step.result = {
          isError: status === 'failed' || (typeof exitCode === 'number' && exitCode !== 0),
          ...(typeof exitCode === 'number' ? { exitCode } : {}),
          output: excerpt(optionalString(item, 'aggregated_output', source, line) ?? ''),
        };
      }
      return step;
    }
    case 'file_change': {
      const changes = item.changes;
      if (!Array.isArray(changes)) throw new TrajectoryError(source, line, 'item.changes: expected an array of {path, kind}');
      const files = changes.map((change, index) => {
        if (!isRecord(change) || typeof change.path !== 'string') throw new TrajectoryError(source, line, `item.changes[${index}].path: expected a string`);
        return { path: pathLabel(change.path, workspace), kind: typeof change.kind === 'string' ? change.kind : 'update' };
      });
      const step: ToolStep = { kind: 'tool', id, agentTool: 'file_change', tool: toolCategory('file_change'), arguments: { changes: files }, filesChanged: files.map((file) => file.path) };
      if (isCompleted) step.result = { isError: status === 'failed', output: files.map((file) => `${file.kind} ${file.path}`).join('\n') };
      return step;
    }
    case 'mcp_tool_call': {
      const tool = `${optionalString(item, 'server', source, line) ?? 'mcp'}.${optionalString(item, 'tool', source, line) ?? 'tool'}`;
      const step: ToolStep = { kind: 'tool', id, agentTool: tool, tool: null, arguments: isRecord(item.arguments) ? item.arguments : {} };
      if (isCompleted) step.result = { isError: status === 'failed' || item.error !== undefined && item.error !== null, output: excerpt(JSON.stringify(item.result ?? item.error ?? null)) };
      return step;
    }
    case 'web_search':
      return { kind: 'tool', id, agentTool: 'web_search', tool: null, arguments: { query: optionalString(item, 'query', source, line) ?? '' } };
    case 'error':
      // Codex's non-fatal notices (unknown model metadata, a retried stream).
      trajectory.errors.push(excerpt(optionalString(item, 'message', source, line) ?? 'error'));
      return undefined;
    default:
      // todo_list and item types of later versions are not steps.
      return undefined;
  }
}
