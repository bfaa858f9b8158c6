// The public surface: the loop, the Agent interface and the built-in agents, the LLM client with its
// options and types, event logging, and the errors. Observation formatting, tool-call parsing, the
// retry arithmetic and log plumbing are internal.

// Errors
export { AgentLoopError } from './errors/agent-loop-error.js';
export { AgentLoadError } from './errors/agent-load-error.js';
export { ConfigurationError } from '@agentbench/schemas';
export { LlmError, LLM_ERROR_KINDS, type LlmErrorKind, type LlmErrorDetails } from './errors/llm-error.js';

// The agent interface
export type {
  Agent,
  AgentAction,
  AgentFactory,
  AgentFactoryOptions,
  AgentStartContext,
  ActionUsage,
  AppliedPatch,
  BudgetState,
  Observation,
  TestRun,
  ToolCall,
  ToolHistoryEntry,
} from './agents/agent.js';
export { loadAgent, type LoadAgentOptions, type LoadedAgent } from './agents/load-agent.js';

// The loop
export { runAgentLoop, type AgentLoopOptions, type AgentLoopResult } from './loop/agent-loop.js';
export { DEFAULT_LOOP_LIMITS, resolveLoopLimits, type AgentLoopLimits } from './loop/loop-limits.js';
export { agentStartProblem, type AgentStartProblem } from './agents/agent-start-problem.js';
export type { ToolExecutor } from './loop/tool-executor.js';

// Logging
export { EventLogger, type EventLoggerOptions, type EventListener } from './logging/event-logger.js';
export type { LlmLogSettings, LlmMessageRecord } from './logging/llm-message-log.js';

// Agents
export { ScriptedAgent, createScriptedAgent, type ScriptedAgentOptions } from './agents/scripted-agent.js';
export { LlmAgent, createLlmAgent, type LlmAgentOptions, type CreateLlmAgentOptions } from './llm/llm-agent.js';
export type { ObservationFormat } from './llm/format-observation.js';

// The LLM client
export { createLlmClient, type LlmClientOptions } from './llm/llm-client.js';
export type { SamplingOptions } from './llm/sampling-options.js';
export { resolveLlmConfig, OPENROUTER_BASE_URL, DEFAULT_MODEL, LLM_PROXY_URL_VARIABLE, type LlmConfigOverrides, type ResolvedLlmConfig } from './llm/llm-config.js';
export type { RetryPolicy } from './llm/retry-policy.js';
export type { ModelPricing } from './llm/llm-usage.js';
export type {
  LlmApi,
  LlmCallObserver,
  LlmClient,
  LlmMessage,
  LlmRequest,
  LlmResponse,
  LlmToolCall,
  LlmToolDefinition,
  LlmUsage,
} from './llm/llm-types.js';
export { toLlmToolDefinitions, type FunctionToolDefinitionLike } from './llm/tool-definitions.js';
