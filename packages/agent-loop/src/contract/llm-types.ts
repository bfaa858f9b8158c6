import type { LlmError } from '../errors/llm-error.js';

/** One message of a conversation, provider-neutral; mapped to Chat Completions or Responses input. */
export type LlmMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A tool call as the model sent it: `arguments` is the raw text, parsed and checked by the agent. */
export interface LlmToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A function the model may call (JSON Schema parameters). */
export interface LlmToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Counted usage of one answer, from the provider's `usage` field; absent figures stay undefined. */
export interface LlmUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  costUsd?: number;
  /** `provider`: `usage.cost` as sent (OpenRouter); `pricing`: tokens times the configured prices; `unknown`: neither. */
  costSource: 'provider' | 'pricing' | 'unknown';
}

export interface LlmResponse {
  text: string | null;
  toolCalls: LlmToolCall[];
  /** `stop`, `tool_calls`, `length`, ... (chat) or the response status mapped alike (responses). */
  finishReason: string | null;
  /** The model that answered, as the provider names it. */
  model: string;
  requestId?: string;
  usage: LlmUsage;
  /** Tries it took, 1 when the first succeeded. */
  attempts: number;
  durationMs: number;
}

/** What an observer of one `complete` call is told, try by try (events and llm_messages.jsonl are built on it). */
export interface LlmCallObserver {
  onRequest?(event: { attempt: number; model: string; api: LlmApi; body: Record<string, unknown> }): void;
  onResponse?(event: { attempt: number; model: string; api: LlmApi; body: unknown; response: LlmResponse }): void;
  onError?(event: { attempt: number; model: string; api: LlmApi; error: LlmError; willRetry: boolean; delayMs?: number }): void;
}

export interface LlmRequest {
  messages: LlmMessage[];
  tools?: LlmToolDefinition[];
  signal?: AbortSignal;
  observer?: LlmCallObserver;
}

export type LlmApi = 'chat' | 'responses';

export interface LlmClient {
  readonly model: string;
  readonly api: LlmApi;
  readonly baseURL: string;
  complete(request: LlmRequest): Promise<LlmResponse>;
}
