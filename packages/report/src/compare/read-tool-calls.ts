import path from 'node:path';
import * as v from 'valibot';
import { AgentEventSchema } from '@agentbench/schemas';
import type { ReadProblem } from '../model/report-model.js';
import { readJsonLines } from '../read/read-jsonl.js';
import type { ToolCallStep } from './run-comparison.js';

/** Characters of a call's arguments kept for display (the comparison uses the whole text). */
export const TOOL_ARGUMENTS_CHARACTERS = 4000;

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same arguments. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function shortened(text: string): string {
  return text.length > TOOL_ARGUMENTS_CHARACTERS ? `${text.slice(0, TOOL_ARGUMENTS_CHARACTERS)}… (${text.length} characters)` : text;
}

/** The diff an `apply_patch` call sends (its `unified_diff`), to be shown as a diff rather than as a JSON string. */
function patchOf(tool: string, params: unknown): string | undefined {
  if (tool !== 'apply_patch' || typeof params !== 'object' || params === null) return undefined;
  const diff = (params as Record<string, unknown>)['unified_diff'];
  return typeof diff === 'string' ? diff : undefined;
}

export interface ToolCallTrajectory {
  /** False when the attempt has no events.jsonl (a baseline, a run-task attempt). */
  hasEvents: boolean;
  /** Each call with its full canonical arguments (`fullArguments`) for comparing. */
  calls: Array<ToolCallStep & { fullArguments: string }>;
}

/** The tool calls of an attempt, in order, from `<folder>/events.jsonl` (`tool_call_started`). */
export async function readToolCalls(folder: string | null, problems: ReadProblem[]): Promise<ToolCallTrajectory> {
  if (folder === null) return { hasEvents: false, calls: [] };
  const lines = await readJsonLines(path.join(folder, 'events.jsonl'), problems);
  if (lines === undefined) return { hasEvents: false, calls: [] };
  const calls: ToolCallTrajectory['calls'] = [];
  for (const { value } of lines) {
    const parsed = v.safeParse(AgentEventSchema, value);
    // Invalid lines are the report's to list; the trajectory just skips them.
    if (!parsed.success || parsed.output.event_type !== 'tool_call_started') continue;
    const event = parsed.output;
    const fullArguments = canonicalJson(event.payload.params ?? {});
    const patch = patchOf(event.payload.tool, event.payload.params);
    calls.push({
      index: calls.length,
      step: event.step ?? null,
      tool: event.payload.tool,
      arguments: shortened(fullArguments),
      ...(patch === undefined ? {} : { patch: shortened(patch) }),
      fullArguments,
    });
  }
  return { hasEvents: true, calls };
}
