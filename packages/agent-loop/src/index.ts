// The public surface: the loop, the Agent interface and the built-in agents, the LLM client with its
// options and types, event logging, and the errors. Observation formatting, tool-call parsing, the
// retry arithmetic, log plumbing and the agents' classes (built through their factories) are internal.

// Errors (LlmError's kinds are its `kind` field)
export { AgentLoopError } from './errors/agent-loop-error.js';
export { AgentLoadError } from './errors/agent-load-error.js';
export { ConfigurationError } from '@agentbench/schemas';
export { LlmError } from './errors/llm-error.js';

// The agent interface
export type { Agent, AgentAction, AgentFactory, AgentStartContext, ActionUsage, Observation, ToolCall } from './contract/agent.js';
export { loadAgent, type LoadedAgent } from './agents/load-agent.js';
export { agentStartProblem, type AgentStartProblem } from './agents/agent-start-problem.js';

// The loop
export { runAgentLoop, type AgentLoopOptions, type AgentLoopResult } from './loop/agent-loop.js';
export { resolveLoopLimits, type AgentLoopLimits } from './contract/loop-limits.js';
export type { ToolExecutor } from './loop/tool-executor.js';
export { EventLogger, type EventListener } from './logging/event-logger.js';

// The built-in agents
export { createScriptedAgent } from './agents/scripted-agent.js';
export { createLlmAgent } from './llm/llm-agent.js';

// The LLM client
export { createLlmClient, type LlmClientOptions } from './llm/llm-client.js';
export { resolveLlmConfig, OPENROUTER_BASE_URL, LLM_PROXY_URL_VARIABLE } from './llm/llm-config.js';
export type { LlmClient, LlmMessage, LlmToolDefinition, LlmUsage } from './contract/llm-types.js';
export { toLlmToolDefinitions } from './llm/tool-definitions.js';
