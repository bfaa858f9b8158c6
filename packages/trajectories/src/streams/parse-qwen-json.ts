import type { AgentTrajectory } from '../agent-trajectory.js';
import { TrajectoryError } from '../errors/trajectory-error.js';
import { readMessageEnvelopes } from './message-envelope-turns.js';
import type { StreamParseOptions } from './parse-codex-json.js';
import { checkStreamSize, isRecord, readStreamLines, type StreamRecord } from './read-stream-lines.js';

/**
 * Qwen Code's output as a trajectory: `-o stream-json` (one message envelope a line) or `-o json`
 * (the same envelopes as one JSON array; "line N" then names the array's Nth element). Both use
 * Claude Code's envelopes (see `readMessageEnvelopes`).
 */
export function parseQwenJson(text: string, options: StreamParseOptions = {}): AgentTrajectory {
  const source = options.source ?? 'qwen json';
  const trimmed = text.trimStart();
  let records: StreamRecord[];
  if (trimmed.startsWith('[')) {
    checkStreamSize(text, source);
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new TrajectoryError(source, null, `not JSON (${(error as Error).message}); expected the JSON array of -o json or one JSON event per line`);
    }
    if (!Array.isArray(value)) throw new TrajectoryError(source, null, 'expected a JSON array of messages');
    records = value.map((item, index) => {
      if (!isRecord(item)) throw new TrajectoryError(source, index + 1, 'expected a JSON object');
      return { line: index + 1, value: item };
    });
  } else {
    records = readStreamLines(text, source);
  }
  return readMessageEnvelopes(records, { format: 'qwen-json', steps: [], isError: false, errors: [] }, source, options.workspace);
}
