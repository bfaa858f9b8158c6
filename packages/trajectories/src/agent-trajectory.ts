import type { ToolName } from '@agentbench/schemas';

/** Token counts of one model turn, as the provider reported them. */
export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from a prompt cache (part of `inputTokens`). */
  cachedTokens?: number;
  costUsd?: number;
}

/** One model request and its answer: what the model said (tool calls are the tool steps after it). */
export interface ModelTurnStep {
  kind: 'model_turn';
  model?: string;
  /** The answer's text, cut to the excerpt cap. */
  text: string;
  reasoning?: string;
  usage?: TurnUsage;
  /** How many tool calls the answer asked for, when the source says (the gateway's answers do). */
  toolCallCount?: number;
  timestamp?: string;
}

/** One tool call of the agent and its result. */
export interface ToolStep {
  kind: 'tool';
  /** The agent's own id of the call (`call_…`, `item_3`). */
  id: string;
  /** The agent's own tool name (`Bash`, `write_file`, `command_execution`). */
  agentTool: string;
  /** Our tool it amounts to, or null for a tool we have no counterpart of (a todo list, a web fetch). */
  tool: ToolName | null;
  /** The call's arguments as the agent sent them (strings cut to the excerpt cap). */
  arguments: Record<string, unknown>;
  /** The command line, for a shell command. */
  command?: string;
  /** Files the call changed (paths relative to the workspace when under it). */
  filesChanged?: string[];
  /** Absent when the stream ended before the result. */
  result?: { isError: boolean; exitCode?: number; output: string };
  timestamp?: string;
}

export type TrajectoryStep = ModelTurnStep | ToolStep;

/** What an installed agent's stream tells about its attempt, whatever its format. */
export interface AgentTrajectory {
  /** The stream format it was read from (`codex-json`, `claude-stream-json`, `qwen-json`). */
  format: string;
  sessionId?: string;
  model?: string;
  steps: TrajectoryStep[];
  /** The agent's final answer, when it gave one. */
  finalText?: string;
  /** The agent's own totals, when it reports them. */
  usage?: TurnUsage;
  /** True when the agent itself reported failing (an error result, a failed turn). */
  isError: boolean;
  /** Messages the agent reported as errors (a model error, a refused turn). */
  errors: string[];
}
