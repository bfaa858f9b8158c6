import type { AgentTrajectory, ModelTurnStep, ToolStep, TurnUsage } from '../agent-trajectory.js';
import { TrajectoryError } from '../errors/trajectory-error.js';
import { countOf, isRecord, optionalString, requiredRecord, requiredString, type StreamRecord } from './read-stream-lines.js';
import { excerpt, pathLabel, STREAM_LIMITS } from './stream-limits.js';
import { editedFile, toolCategory } from './tool-categories.js';

function usageOf(value: unknown): TurnUsage | undefined {
  if (!isRecord(value)) return undefined;
  const cached = (countOf(value.cache_read_input_tokens) ?? 0) + (countOf(value.cache_creation_input_tokens) ?? 0);
  return {
    // Anthropic counts cached input apart from input_tokens; ATIF and we count it inside.
    inputTokens: (countOf(value.input_tokens) ?? 0) + cached,
    outputTokens: countOf(value.output_tokens) ?? 0,
    ...(cached > 0 ? { cachedTokens: countOf(value.cache_read_input_tokens) ?? 0 } : {}),
  };
}

function isEmptyUsage(usage: TurnUsage | undefined): boolean {
  return usage === undefined || (usage.inputTokens === 0 && usage.outputTokens === 0);
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).filter((text) => text !== '').join('\n');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** `Exit code 2` (Claude Code) or `Exit Code: 2` (Qwen Code) in a failed command's result. */
function exitCodeIn(text: string): number | undefined {
  const match = /exit code:?\s*(-?\d{1,6})/i.exec(text);
  return match === null ? undefined : Number(match[1]);
}

function cutStrings(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === 'string' ? excerpt(item) : item]));
}

/**
 * The message envelopes Claude Code's `stream-json` and Qwen Code's `stream-json`/`json` share:
 * `system` (init: session, model), `assistant` (an Anthropic message: text, thinking, tool_use blocks,
 * usage), `user` (tool_result blocks), `result` (the final answer, totals, is_error). Consecutive
 * assistant lines are one model turn (both agents split one answer into a line per block; Claude Code
 * repeats the message id, Qwen Code gives each line its own), and a later line with a known message id
 * joins its turn.
 */
export function readMessageEnvelopes(records: StreamRecord[], trajectory: AgentTrajectory, source: string, workspace: string | undefined): AgentTrajectory {
  const turnsById = new Map<string, ModelTurnStep>();
  const calls = new Map<string, ToolStep>();
  let currentTurn: ModelTurnStep | undefined;
  const push = (step: ModelTurnStep | ToolStep, line: number): void => {
    if (trajectory.steps.length >= STREAM_LIMITS.steps) throw new TrajectoryError(source, line, `more than ${STREAM_LIMITS.steps} steps`);
    trajectory.steps.push(step);
  };
  for (const { line, value: record } of records) {
    const type = requiredString(record, 'type', source, line);
    if (type === 'system') {
      trajectory.sessionId ??= optionalString(record, 'session_id', source, line);
      trajectory.model ??= optionalString(record, 'model', source, line);
      continue;
    }
    if (type === 'result') {
      const isError = record.is_error === true || (typeof record.subtype === 'string' && record.subtype !== 'success');
      if (isError) {
        trajectory.isError = true;
        trajectory.errors.push(excerpt(typeof record.result === 'string' ? record.result : String(record.subtype ?? 'error')));
      }
      if (typeof record.result === 'string') trajectory.finalText = excerpt(record.result);
      const usage = usageOf(record.usage);
      if (usage !== undefined) {
        const cost = record.total_cost_usd;
        trajectory.usage = { ...usage, ...(typeof cost === 'number' && Number.isFinite(cost) ? { costUsd: cost } : {}) };
      }
      continue;
    }
    if (type === 'assistant') {
      const message = requiredRecord(record, 'message', source, line);
      const content = message.content;
      if (!Array.isArray(content)) throw new TrajectoryError(source, line, 'message.content: expected an array of content blocks');
      const id = optionalString(message, 'id', source, line);
      let turn = id === undefined ? undefined : turnsById.get(id);
      if (turn === undefined) {
        if (currentTurn === undefined) {
          currentTurn = { kind: 'model_turn', text: '' };
          const model = optionalString(message, 'model', source, line);
          if (model !== undefined) currentTurn.model = model;
          push(currentTurn, line);
        }
        turn = currentTurn;
        if (id !== undefined) turnsById.set(id, turn);
      }
      const usage = usageOf(message.usage);
      // Claude Code repeats the usage of the answer's start on each line; Qwen Code gives 0 on all but one.
      if (!isEmptyUsage(usage) && (turn.usage === undefined || usage!.outputTokens >= turn.usage.outputTokens)) turn.usage = usage;
      for (const [index, block] of content.entries()) {
        if (!isRecord(block)) throw new TrajectoryError(source, line, `message.content[${index}]: expected an object`);
        const blockType = requiredString(block, 'type', source, line);
        if (blockType === 'text' && typeof block.text === 'string') {
          turn.text = excerpt(turn.text === '' ? block.text : `${turn.text}\n${block.text}`);
        } else if (blockType === 'thinking' && typeof block.thinking === 'string') {
          turn.reasoning = excerpt(turn.reasoning === undefined ? block.thinking : `${turn.reasoning}\n${block.thinking}`);
        } else if (blockType === 'tool_use') {
          const callId = requiredString(block, 'id', source, line);
          const agentTool = requiredString(block, 'name', source, line);
          const input = isRecord(block.input) ? block.input : {};
          const step: ToolStep = { kind: 'tool', id: callId, agentTool, tool: toolCategory(agentTool), arguments: cutStrings(input) };
          if (step.tool === 'run' && typeof input.command === 'string') step.command = pathLabel(input.command, undefined);
          calls.set(callId, step);
          push(step, line);
        }
      }
      continue;
    }
    if (type === 'user') {
      currentTurn = undefined;
      const message = isRecord(record.message) ? record.message : {};
      const content = Array.isArray(message.content) ? message.content : [];
      for (const block of content) {
        if (!isRecord(block) || block.type !== 'tool_result') continue;
        const callId = typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined;
        const step = callId === undefined ? undefined : calls.get(callId);
        if (step === undefined) continue;
        const output = resultText(block.content);
        const isError = block.is_error === true;
        const exitCode = step.tool === 'run' ? (isError ? exitCodeIn(output) : 0) : undefined;
        step.result = { isError, ...(exitCode === undefined ? {} : { exitCode }), output: excerpt(output) };
        // A refused or failed edit changed nothing.
        const file = step.tool === 'apply_patch' && !isError ? editedFile(step.arguments) : undefined;
        if (file !== undefined) step.filesChanged = [pathLabel(file, workspace)];
      }
      continue;
    }
    // stream_event (partial deltas, goal state) and types of later versions are not steps.
  }
  if (trajectory.finalText === undefined) {
    const last = [...trajectory.steps].reverse().find((step): step is ModelTurnStep => step.kind === 'model_turn' && step.text !== '');
    if (last !== undefined) trajectory.finalText = last.text;
  }
  return trajectory;
}
