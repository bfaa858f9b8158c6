import path from 'node:path';
import type { ModelConfig } from '@agentbench/schemas';
import type { ActionUsage, Agent, AgentAction, AgentFactoryOptions, AgentStartContext, Observation, ToolCall } from '../contract/agent.js';
import { ConfigurationError } from '@agentbench/schemas';
import { LlmError } from '../errors/llm-error.js';
import type { EventLogger } from '../logging/event-logger.js';
import { LlmMessageLog, resolveLlmLogSettings, type LlmLogSettings } from '../logging/llm-message-log.js';
import { extractDiff } from './diff-extraction.js';
import { formatObservation, type ObservationFormat } from './format-observation.js';
import { createLlmClient, type LlmClientOptions } from './llm-client.js';
import { resolveLlmConfig, type LlmConfigOverrides } from './llm-config.js';
import type { LlmCallObserver, LlmClient, LlmMessage, LlmResponse, LlmToolDefinition } from '../contract/llm-types.js';
import { systemPromptV1 } from './system-prompt.js';
import { parseToolCall, type ParsedToolCall } from './tool-arguments.js';

export interface LlmAgentOptions {
  client: LlmClient;
  /** Recorded as `model.provider`. Default `openai-compatible`. */
  provider?: string;
  /** Default: the shipped `system-v1.md`. */
  systemPrompt?: { text: string; version: string };
  /** Tool definitions; default: the ones the loop hands over at start. */
  toolDefinitions?: readonly LlmToolDefinition[];
  /** `llm_messages.jsonl` switches; default from the environment (see `resolveLlmLogSettings`). */
  logSettings?: LlmLogSettings;
  observationFormat?: Partial<ObservationFormat>;
  /** Sampling recorded in the AttemptRecord (send them through the client's options). */
  sampling?: { temperature?: number; topP?: number; maxOutputTokens?: number };
}

const FILE_NAME = 'llm_messages.jsonl';

/**
 * The tool-using LLM agent. Each turn it sends the system prompt and one observation built from
 * the loop's state (budgets, last test output, patches, recent tool calls), so the context stays
 * bounded however long the run. All tool calls of a reply go to the loop as one action (the loop
 * runs them in order: the queue). Malformed tool arguments, or a reply with neither a tool call nor
 * a diff, get one corrective retry in the same turn; a diff written as text becomes apply_patch.
 */
export class LlmAgent implements Agent {
  readonly name = 'llm';
  readonly modelConfig: ModelConfig;
  private readonly client: LlmClient;
  private readonly systemPrompt: { text: string; version: string };
  private readonly options: LlmAgentOptions;
  private definitions: readonly LlmToolDefinition[];
  private eventLogger: EventLogger | undefined;
  private messageLog: LlmMessageLog | undefined;
  private note: string | undefined;

  constructor(options: LlmAgentOptions) {
    this.options = options;
    this.client = options.client;
    this.systemPrompt = options.systemPrompt ?? systemPromptV1();
    this.definitions = options.toolDefinitions ?? [];
    const sampling = options.sampling ?? {};
    this.modelConfig = {
      provider: options.provider ?? 'openai-compatible',
      name: this.client.model,
      temperature: sampling.temperature ?? null,
      top_p: sampling.topP ?? null,
      max_tokens: sampling.maxOutputTokens ?? null,
      prompt_version: this.systemPrompt.version,
      api: this.client.api,
      base_url: this.client.baseURL,
    };
  }

  async start(context: AgentStartContext): Promise<void> {
    if (this.definitions.length === 0) this.definitions = context.toolDefinitions;
    if (this.definitions.length === 0) {
      throw new ConfigurationError('toolDefinitions', 'the llm agent needs the tools\' definitions (pass them to the loop or to the agent)');
    }
    this.eventLogger = context.eventLogger;
    const settings = this.options.logSettings ?? resolveLlmLogSettings();
    if (settings.isEnabled) this.messageLog = new LlmMessageLog(path.join(context.artifactsDir, FILE_NAME), settings);
  }

  async dispose(): Promise<void> {
    this.messageLog?.close();
    this.messageLog = undefined;
  }

  async nextAction(observation: Observation, signal: AbortSignal): Promise<AgentAction> {
    const usage: ActionUsage = {};
    const messages: LlmMessage[] = [
      { role: 'system', content: this.systemPrompt.text },
      { role: 'user', content: formatObservation(observation, { format: this.options.observationFormat ?? {}, ...(this.note === undefined ? {} : { note: this.note }) }) },
    ];
    const first = await this.complete(messages, observation.step, signal, usage);
    const firstAction = this.toAction(first);
    if (firstAction.kind === 'action') return this.finish(firstAction.action, first, usage);

    // One corrective retry in the same turn: the model sees its own reply and what was wrong with it.
    messages.push(assistantMessage(first));
    if (firstAction.kind === 'malformed') {
      for (const parsed of firstAction.parsed) {
        messages.push({
          role: 'tool',
          toolCallId: parsed.call.id,
          content: parsed.isValid
            ? 'Not run: another call of this reply had invalid arguments. Send all the calls again, corrected.'
            : `Error: ${parsed.problem}. Send the call again with valid JSON arguments that match the tool's parameters.`,
        });
      }
    } else {
      messages.push({
        role: 'user',
        content: 'Your reply had no tool call and no patch. Call a tool (or give a unified diff) to make progress, or explain briefly why you stop.',
      });
    }
    const second = await this.complete(messages, observation.step, signal, usage);
    const secondAction = this.toAction(second);
    if (secondAction.kind === 'action') return this.finish(secondAction.action, second, usage);
    if (secondAction.kind === 'malformed') {
      const problems = secondAction.parsed.filter((parsed) => !parsed.isValid).map((parsed) => (parsed.isValid ? '' : parsed.problem));
      throw new LlmError(`the model sent invalid tool calls twice in a row: ${problems.join('; ')}`, { kind: 'malformed_response', isRetryable: false });
    }
    const text = (second.text ?? first.text ?? '').trim();
    return { kind: 'stop', reason: 'gave_up', message: text === '' ? 'the model answered without a tool call' : shorten(text, 500), usage };
  }

  private finish(action: AgentAction, response: LlmResponse, usage: ActionUsage): AgentAction {
    const text = response.text?.trim();
    this.note = text === undefined || text === '' ? undefined : text;
    return { ...action, usage };
  }

  /** Reads a reply: valid tool calls (all of them), a diff in text, or what is wrong with it. */
  private toAction(response: LlmResponse): { kind: 'action'; action: AgentAction } | { kind: 'malformed'; parsed: ParsedToolCall[] } | { kind: 'empty' } {
    if (response.toolCalls.length > 0) {
      const parsed = response.toolCalls.map((call) => parseToolCall(call, this.definitions));
      if (parsed.some((entry) => !entry.isValid)) return { kind: 'malformed', parsed };
      const calls: ToolCall[] = parsed.map((entry) => (entry.isValid ? { tool: entry.tool, params: entry.params, id: entry.call.id } : (undefined as never)));
      return { kind: 'action', action: { kind: 'tool_calls', calls } };
    }
    const diff = response.text === null ? undefined : extractDiff(response.text);
    if (diff !== undefined) {
      return { kind: 'action', action: { kind: 'tool_calls', calls: [{ tool: 'apply_patch', params: { unified_diff: diff } }], message: 'diff taken from the text answer' } };
    }
    return { kind: 'empty' };
  }

  private async complete(messages: LlmMessage[], step: number, signal: AbortSignal, usage: ActionUsage): Promise<LlmResponse> {
    const response = await this.client.complete({ messages, tools: [...this.definitions], signal, observer: this.observer(step) });
    if (response.usage.inputTokens !== undefined) usage.inputTokens = (usage.inputTokens ?? 0) + response.usage.inputTokens;
    if (response.usage.outputTokens !== undefined) usage.outputTokens = (usage.outputTokens ?? 0) + response.usage.outputTokens;
    if (response.usage.costUsd !== undefined) usage.costUsd = (usage.costUsd ?? 0) + response.usage.costUsd;
    return response;
  }

  /** Events (`llm_request_*`) and `llm_messages.jsonl`, try by try. */
  private observer(step: number): LlmCallObserver {
    const runId = this.eventLogger?.runId ?? '';
    return {
      onRequest: ({ attempt, model, api, body }) => {
        this.eventLogger?.emit('llm_request_started', { model, attempt, api, message_count: countMessages(body) }, step);
        this.messageLog?.write({ run_id: runId, step, attempt, direction: 'request', api, model, body });
      },
      onResponse: ({ attempt, model, api, body, response }) => {
        const payload: Record<string, unknown> & { model: string } = {
          model: response.model || model,
          attempt,
          request_id: response.requestId ?? null,
          input_tokens: response.usage.inputTokens ?? null,
          output_tokens: response.usage.outputTokens ?? null,
          cost_usd: response.usage.costUsd ?? null,
          cost_source: response.usage.costSource,
          duration_sec: response.durationMs / 1000,
          finish_reason: response.finishReason,
          tool_calls: response.toolCalls.length,
        };
        this.eventLogger?.emit('llm_request_finished', payload, step);
        this.messageLog?.write({ run_id: runId, step, attempt, direction: 'response', api, model, body });
      },
      onError: ({ attempt, model, api, error, willRetry, delayMs }) => {
        this.eventLogger?.emit(
          'llm_request_failed',
          {
            model,
            attempt,
            request_id: error.requestId ?? null,
            error_type: error.kind,
            message: error.message,
            is_retryable: error.isRetryable,
            status: error.status ?? null,
            will_retry: willRetry,
            retry_delay_ms: delayMs ?? null,
          },
          step,
        );
        const logged: { kind: string; message: string; status?: number; will_retry: boolean; delay_ms?: number } = { kind: error.kind, message: error.message, will_retry: willRetry };
        if (error.status !== undefined) logged.status = error.status;
        if (delayMs !== undefined) logged.delay_ms = delayMs;
        this.messageLog?.write({ run_id: runId, step, attempt, direction: 'error', api, model, error: logged });
      },
    };
  }
}

function assistantMessage(response: LlmResponse): LlmMessage {
  return { role: 'assistant', content: response.text, toolCalls: response.toolCalls };
}

function countMessages(body: Record<string, unknown>): number {
  const list = body['messages'] ?? body['input'];
  return Array.isArray(list) ? list.length : 0;
}

function shorten(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}…`;
}

export interface CreateLlmAgentOptions extends AgentFactoryOptions {
  /** Settings that win over the environment (base URL, key, API, prices...). */
  llm?: LlmConfigOverrides;
  /** Extra client options (retry policy, timeouts, sampling). */
  client?: Partial<LlmClientOptions>;
  /** `--log-llm-messages` / `--no-log-llm-messages`; default from `AGENTBENCH_LOG_LLM_MESSAGES` (on). */
  logLlmMessages?: boolean;
  /** Another system prompt, with the version recorded beside each attempt (default: the built-in v1). */
  systemPrompt?: { text: string; version: string };
}

/**
 * Builds the LLM agent from options and the environment (see `resolveLlmConfig`). Throws a
 * ConfigurationError, before anything runs, when no API key is configured.
 */
export function createLlmAgent(options: CreateLlmAgentOptions = {}): LlmAgent {
  const environment = options.environment ?? process.env;
  const overrides: LlmConfigOverrides = { ...options.llm };
  if (typeof options.model === 'string' && options.model !== '') overrides.model = options.model;
  const config = resolveLlmConfig(overrides, environment);
  const clientOptions: LlmClientOptions = { ...config.client, ...options.client };
  const client = createLlmClient(clientOptions);
  const logSettings = resolveLlmLogSettings({ environment, ...(options.logLlmMessages === undefined ? {} : { isEnabled: options.logLlmMessages }) });
  const agentOptions: LlmAgentOptions = { client, provider: config.provider, logSettings };
  if (clientOptions.sampling !== undefined) agentOptions.sampling = clientOptions.sampling;
  if (options.systemPrompt !== undefined) agentOptions.systemPrompt = options.systemPrompt;
  return new LlmAgent(agentOptions);
}
