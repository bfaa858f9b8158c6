import * as v from 'valibot';
import { AgentEventSchema, type AgentEvent } from '@agentbench/schemas';
import { TrajectoryError } from '../errors/trajectory-error.js';
import { checkStreamSize } from '../streams/read-stream-lines.js';

/** JSON lines of an attempt file (`events.jsonl`, `llm_messages.jsonl`), each with its 1-based line; a broken line fails naming it. */
export function parseJsonLines(text: string, source: string): Array<{ line: number; value: unknown }> {
  checkStreamSize(text, source);
  const lines: Array<{ line: number; value: unknown }> = [];
  for (const [index, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    try {
      lines.push({ line: index + 1, value: JSON.parse(raw) });
    } catch (error) {
      throw new TrajectoryError(source, index + 1, `not JSON (${(error as Error).message})`);
    }
  }
  return lines;
}

/** The events of an `events.jsonl`; a line that is no valid event fails naming its line and field. */
export function parseEventLines(text: string, source: string): AgentEvent[] {
  return parseJsonLines(text, source).map(({ line, value }) => {
    const parsed = v.safeParse(AgentEventSchema, value);
    if (parsed.success) return parsed.output;
    const issue = parsed.issues[0];
    const where = issue?.path?.map((item) => String(item.key)).join('.') ?? '';
    throw new TrajectoryError(source, line, `not a valid event: ${where === '' ? '' : `${where}: `}${issue?.message ?? 'invalid'}`);
  });
}
