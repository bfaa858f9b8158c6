import type { LoadedTask, ModelConfig, ToolName, ToolRequest, ToolResult } from '@agentbench/schemas';
import type { LlmToolDefinition } from './llm-types.js';
import type { EventLogger } from '../logging/event-logger.js';
import type { AgentLoopLimits } from './loop-limits.js';

/** A tool call an agent asks for. The loop gives it a `request_id` (the `id`, when set) and a timestamp. */
export interface ToolCall {
  tool: ToolName;
  params: Record<string, unknown>;
  id?: string;
}

/** Tokens and cost spent to produce one action, as counted by the provider. */
export interface ActionUsage {
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
}

/**
 * What an agent wants next: tool calls (run in order, each one step), or to stop. `done` means
 * "I believe the tests pass"; the loop checks, it does not take the agent's word for it.
 */
export type AgentAction =
  | { kind: 'tool_calls'; calls: ToolCall[]; usage?: ActionUsage; message?: string }
  | { kind: 'stop'; reason: 'gave_up' | 'done'; message?: string; usage?: ActionUsage };

/** One run of the task's test command (the loop's own runs and `run` calls of the same command). */
export interface TestRun {
  /** The step it ran in: 0 for the first run, else the step of the call that led to it. */
  step: number;
  command: string;
  exitCode: number;
  passed: boolean;
  timedOut: boolean;
  /** stdout then stderr, capped. */
  output: string;
  durationMs: number;
  /** Host path of the full log, when one was written. */
  logPath?: string;
  /** Why it ran: the first step, after a patch, an agent's `run`, or before the loop ended. */
  trigger: 'initial' | 'after_patch' | 'agent' | 'before_exit';
}

export interface ToolHistoryEntry {
  step: number;
  request: ToolRequest;
  result: ToolResult;
}

export interface AppliedPatch {
  step: number;
  /** Host path of `diffs/step_NNNN.patch`, when the tools wrote one. */
  patchPath?: string;
  filesChanged: string[];
}

/** Budgets as the agent sees them before its next action. */
export interface BudgetState {
  maxSteps: number;
  stepsUsed: number;
  stepsRemaining: number;
  maxTimeSec: number;
  elapsedSec: number;
  timeRemainingSec: number;
  inputTokens: number;
  outputTokens: number;
  maxTokens?: number;
  costUsd?: number;
  maxCostUsd?: number;
}

/** What the agent is shown before each action: built from the loop's state, never from the agent's memory. */
export interface Observation {
  /** The step the next tool call will be (1-based). */
  step: number;
  /** `problemStatement`: the issue text kept beside the task (`problem_statement.md`, e.g. from a SWE-bench import). */
  task: { id: string; suite: string; testCommand: string; workdir: string; problemStatement?: string };
  lastTestRun?: TestRun;
  /** Every tool call so far, oldest first (agents show a window of it). */
  history: readonly ToolHistoryEntry[];
  /** The calls of the previous action, with their results (for tool-result messages). */
  lastResults: readonly ToolHistoryEntry[];
  patches: readonly AppliedPatch[];
  budgets: BudgetState;
}

/** Given to `Agent.start` once, before the first action. */
export interface AgentStartContext {
  runId: string;
  task: LoadedTask;
  artifactsDir: string;
  eventLogger: EventLogger;
  /** The tools' JSON Schemas for function calling. */
  toolDefinitions: readonly LlmToolDefinition[];
  limits: AgentLoopLimits;
  signal: AbortSignal;
}

/**
 * The one interface an agent implements. The loop owns budgets, tests and stop reasons; the
 * agent only picks the next action. Throwing an `LlmError` (or an error with `errorKind: 'llm'`)
 * ends the run with LLM_ERROR (its class decided by the harness's evidence, not by the error);
 * `errorKind: 'interrupt'` raised by the agent itself ends it with AGENT_GAVE_UP (only the
 * harness's signal interrupts); any other exception is a bug, recorded as INTERNAL_ERROR.
 */
export interface Agent {
  readonly name: string;
  /** The model settings recorded in the AttemptRecord, for LLM agents. */
  readonly modelConfig?: ModelConfig;
  start?(context: AgentStartContext): Promise<void>;
  nextAction(observation: Observation, signal: AbortSignal): Promise<AgentAction>;
  dispose?(): Promise<void>;
}

/** Options every agent factory receives (`loadAgent` passes them to a module's default export). */
export interface AgentFactoryOptions {
  /** The task being attempted (its `agentScript`, its id...). */
  task?: LoadedTask;
  /** `--model`, when given. */
  model?: string;
  /** A scripted agent's script file (`--script`), overriding the task's. */
  scriptFile?: string;
  /** Environment to read settings from (default `process.env`). */
  environment?: NodeJS.ProcessEnv;
  /** Anything else a custom agent wants (from the caller). */
  [option: string]: unknown;
}

/** A module's default export for `--variant ./my-agent.js`: builds the agent. */
export type AgentFactory = (options: AgentFactoryOptions) => Agent | Promise<Agent>;
