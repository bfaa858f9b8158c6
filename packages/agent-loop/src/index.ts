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
export { loadAgent, BUILT_IN_VARIANTS, type LoadAgentOptions, type LoadedAgent } from './agents/load-agent.js';

// The loop
export { AgentLoop, runAgentLoop, type AgentLoopOptions, type AgentLoopResult } from './loop/agent-loop.js';
export { DEFAULT_LOOP_LIMITS, resolveLoopLimits, type AgentLoopLimits } from './loop/loop-limits.js';
export { RepeatedFailureDetector, normalizeTestOutput } from './loop/repeated-failure.js';
export type { ToolExecutor } from './loop/tool-executor.js';

// Logging
export { EventLogger, type EventLoggerOptions, type EventListener } from './logging/event-logger.js';
export { JsonlWriter } from './logging/jsonl-writer.js';
export {
  LlmMessageLog,
  resolveLlmLogSettings,
  truncateStrings,
  DEFAULT_LLM_LOG_MAX_CHARS,
  type LlmLogSettings,
  type LlmMessageRecord,
} from './logging/llm-message-log.js';

// Agents
export { ScriptedAgent, createScriptedAgent, loadScriptFile, type ScriptedAgentOptions } from './agents/scripted-agent.js';
export { LlmAgent, createLlmAgent, type LlmAgentOptions, type CreateLlmAgentOptions } from './llm/llm-agent.js';

// The LLM client
export { createLlmClient, DEFAULT_LLM_TIMEOUT_MS, type LlmClientOptions } from './llm/llm-client.js';
export type { SamplingOptions } from './llm/sampling-options.js';
export { resolveLlmConfig, OPENROUTER_BASE_URL, DEFAULT_MODEL, type LlmConfigOverrides, type ResolvedLlmConfig } from './llm/llm-config.js';
export { DEFAULT_RETRY_POLICY, backoffDelayMs, parseRetryAfter, resolveRetryPolicy, type RetryPolicy } from './llm/retry-policy.js';
export { normalizeLlmError } from './llm/normalize-llm-error.js';
export { readUsage, type ModelPricing } from './llm/llm-usage.js';
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
export { extractDiff } from './llm/diff-extraction.js';
export { formatObservation, formatToolResult, DEFAULT_OBSERVATION_FORMAT, type ObservationFormat } from './llm/format-observation.js';
export { parseToolCall, schemaProblems, type ParsedToolCall } from './llm/tool-arguments.js';
export { systemPromptV1, promptVersion, type SystemPrompt } from './llm/system-prompt.js';
export { toLlmToolDefinitions, type FunctionToolDefinitionLike } from './llm/tool-definitions.js';
