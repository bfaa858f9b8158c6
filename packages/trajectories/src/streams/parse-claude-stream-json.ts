import type { AgentTrajectory } from '../agent-trajectory.js';
import { readMessageEnvelopes } from './message-envelope-turns.js';
import type { StreamParseOptions } from './parse-codex-json.js';
import { readStreamLines } from './read-stream-lines.js';

/**
 * Claude Code's `claude -p --output-format stream-json --verbose` stream (one message envelope a
 * line) as a trajectory: each answer a model turn with its usage, each `tool_use` a tool step with
 * its `tool_result` (a Bash command's exit code read from its error text, 0 when it succeeded), each
 * successful Write/Edit the file it changed.
 */
export function parseClaudeStreamJson(text: string, options: StreamParseOptions = {}): AgentTrajectory {
  const source = options.source ?? 'claude stream-json';
  return readMessageEnvelopes(readStreamLines(text, source), { format: 'claude-stream-json', steps: [], isError: false, errors: [] }, source, options.workspace);
}
