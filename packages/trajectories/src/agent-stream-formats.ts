import type { AgentTrajectory } from './agent-trajectory.js';
import { TrajectoryError } from './errors/trajectory-error.js';
import { parseClaudeStreamJson } from './streams/parse-claude-stream-json.js';
import { parseCodexJson, type StreamParseOptions } from './streams/parse-codex-json.js';
import { parseQwenJson } from './streams/parse-qwen-json.js';

/** The stream formats an installed agent's definition can name (its `trajectory` field). */
export const AGENT_STREAM_FORMATS = {
  'codex-json': parseCodexJson,
  'claude-stream-json': parseClaudeStreamJson,
  'qwen-json': parseQwenJson,
} as const satisfies Record<string, (text: string, options?: StreamParseOptions) => AgentTrajectory>;

export type AgentStreamFormat = keyof typeof AGENT_STREAM_FORMATS;

/** An installed agent's output, read as the format its definition names. */
export function parseAgentStream(format: string, text: string, options: StreamParseOptions = {}): AgentTrajectory {
  if (!Object.hasOwn(AGENT_STREAM_FORMATS, format)) {
    throw new TrajectoryError(options.source ?? 'agent stream', null, `unknown stream format "${format}"; expected one of ${Object.keys(AGENT_STREAM_FORMATS).join(', ')}`);
  }
  return AGENT_STREAM_FORMATS[format as AgentStreamFormat](text, options);
}

export type { StreamParseOptions };
