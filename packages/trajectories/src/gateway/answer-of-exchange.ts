import type { CassetteExchange } from '@agentbench/schemas';
import type { TurnUsage } from '../agent-trajectory.js';
import { countOf, isRecord } from '../streams/read-stream-lines.js';
import { excerpt } from '../streams/stream-limits.js';

/** Characters of a recorded answer read; a longer one is counted as an answer without text. */
const ANSWER_CHARACTERS = 16 * 1024 * 1024;

/** What one recorded model answer said, in any of the three wire APIs, whole or streamed. */
export interface GatewayAnswer {
  model?: string;
  text: string;
  toolCallCount: number;
  usage?: TurnUsage;
}

/** Which API an exchange spoke, from its endpoint. */
export function wireApiOf(endpoint: string): 'responses' | 'messages' | 'chat' | undefined {
  const pathOnly = endpoint.split('?')[0] ?? '';
  if (pathOnly.endsWith('/responses')) return 'responses';
  if (pathOnly.endsWith('/messages')) return 'messages';
  if (pathOnly.endsWith('/chat/completions')) return 'chat';
  return undefined;
}

/** A usage block of any of the three APIs in ATIF's terms: input includes cached input. */
export function usageOfBlock(usage: unknown, api: 'responses' | 'messages' | 'chat'): TurnUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const cost = typeof usage.cost === 'number' && Number.isFinite(usage.cost) ? { costUsd: usage.cost } : {};
  if (api === 'messages') {
    const cacheRead = countOf(usage.cache_read_input_tokens) ?? 0;
    const cacheWrite = countOf(usage.cache_creation_input_tokens) ?? 0;
    return { inputTokens: (countOf(usage.input_tokens) ?? 0) + cacheRead + cacheWrite, outputTokens: countOf(usage.output_tokens) ?? 0, ...(cacheRead > 0 ? { cachedTokens: cacheRead } : {}), ...cost };
  }
  const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const cached = countOf(details.cached_tokens) ?? 0;
  return {
    inputTokens: countOf(usage.prompt_tokens) ?? countOf(usage.input_tokens) ?? 0,
    outputTokens: countOf(usage.completion_tokens) ?? countOf(usage.output_tokens) ?? 0,
    ...(cached > 0 ? { cachedTokens: cached } : {}),
    ...cost,
  };
}

/** The JSON payloads of a server-sent event stream's `data:` lines (not `[DONE]`, not broken ones). */
function streamEvents(body: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const line of body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    try {
      const value: unknown = JSON.parse(data);
      if (isRecord(value)) events.push(value);
    } catch {
      // A cut stream's last frame: the answer is what came before it.
    }
  }
  return events;
}

function textOfParts(parts: unknown): string {
  if (!Array.isArray(parts)) return typeof parts === 'string' ? parts : '';
  return parts.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).filter((text) => text !== '').join('\n');
}

const RESPONSES_CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);

function responsesAnswer(response: Record<string, unknown>): GatewayAnswer {
  const output = Array.isArray(response.output) ? response.output : [];
  const texts = output.filter((item) => isRecord(item) && item.type === 'message').map((item) => textOfParts((item as Record<string, unknown>).content));
  return {
    ...(typeof response.model === 'string' ? { model: response.model } : {}),
    text: texts.filter((text) => text !== '').join('\n'),
    toolCallCount: output.filter((item) => isRecord(item) && typeof item.type === 'string' && RESPONSES_CALL_TYPES.has(item.type)).length,
  };
}

/**
 * The answer in a whole (not streamed) response body of any of the three APIs, told apart by its shape
 * (`choices`, `output`, `content`) unless `api` says which.
 */
export function answerOfJson(value: unknown, api?: 'responses' | 'messages' | 'chat'): GatewayAnswer & { usageBlock?: unknown } {
  if (!isRecord(value)) return { text: '', toolCallCount: 0 };
  const kind = api ?? (Array.isArray(value.choices) ? 'chat' : Array.isArray(value.output) ? 'responses' : 'messages');
  if (kind === 'responses') return { ...responsesAnswer(value), usageBlock: value.usage };
  if (kind === 'messages') {
    const content = Array.isArray(value.content) ? value.content : [];
    return {
      ...(typeof value.model === 'string' ? { model: value.model } : {}),
      text: textOfParts(content.filter((block) => isRecord(block) && block.type === 'text')),
      toolCallCount: content.filter((block) => isRecord(block) && block.type === 'tool_use').length,
      usageBlock: value.usage,
    };
  }
  const choice = Array.isArray(value.choices) && isRecord(value.choices[0]) ? value.choices[0] : {};
  const message = isRecord(choice.message) ? choice.message : {};
  return {
    ...(typeof value.model === 'string' ? { model: value.model } : {}),
    text: textOfParts(message.content),
    toolCallCount: Array.isArray(message.tool_calls) ? message.tool_calls.length : 0,
    usageBlock: value.usage,
  };
}

function answerOfBody(api: 'responses' | 'messages' | 'chat', body: string, isStream: boolean): GatewayAnswer & { usageBlock?: unknown } {
  if (!isStream) {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return { text: '', toolCallCount: 0 };
    }
    return answerOfJson(value, api);
  }
  const events = streamEvents(body);
  if (api === 'responses') {
    const final = events.find((event) => typeof event.type === 'string' && /^response\.(completed|incomplete|failed)$/.test(event.type) && isRecord(event.response));
    if (final !== undefined) {
      const response = final.response as Record<string, unknown>;
      return { ...responsesAnswer(response), usageBlock: response.usage };
    }
    return {
      text: events.filter((event) => event.type === 'response.output_text.delta').map((event) => (typeof event.delta === 'string' ? event.delta : '')).join(''),
      toolCallCount: events.filter((event) => event.type === 'response.output_item.added' && isRecord(event.item) && typeof event.item.type === 'string' && RESPONSES_CALL_TYPES.has(event.item.type)).length,
    };
  }
  if (api === 'messages') {
    let model: string | undefined;
    let usage: Record<string, unknown> = {};
    let text = '';
    let toolCallCount = 0;
    for (const event of events) {
      if (event.type === 'message_start' && isRecord(event.message)) {
        if (typeof event.message.model === 'string') model = event.message.model;
        if (isRecord(event.message.usage)) usage = { ...usage, ...event.message.usage };
      } else if (event.type === 'content_block_start' && isRecord(event.content_block) && event.content_block.type === 'tool_use') {
        toolCallCount += 1;
      } else if (event.type === 'content_block_delta' && isRecord(event.delta) && event.delta.type === 'text_delta' && typeof event.delta.text === 'string') {
        text += event.delta.text;
      } else if (event.type === 'message_delta' && isRecord(event.usage)) {
        // The final counts: output tokens (and, from some providers, input counts again).
        usage = { ...usage, ...event.usage };
      }
    }
    return { ...(model === undefined ? {} : { model }), text, toolCallCount, usageBlock: usage };
  }
  let model: string | undefined;
  let text = '';
  let usageBlock: unknown;
  const toolIndexes = new Set<number>();
  for (const event of events) {
    if (typeof event.model === 'string') model = event.model;
    if (isRecord(event.usage)) usageBlock = event.usage;
    const choice = Array.isArray(event.choices) && isRecord(event.choices[0]) ? event.choices[0] : undefined;
    const delta = choice !== undefined && isRecord(choice.delta) ? choice.delta : undefined;
    if (delta === undefined) continue;
    if (typeof delta.content === 'string') text += delta.content;
    if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) if (isRecord(call) && typeof call.index === 'number') toolIndexes.add(call.index);
  }
  return { ...(model === undefined ? {} : { model }), text, toolCallCount: toolIndexes.size, usageBlock };
}

/**
 * The answer of one recorded exchange: its text, how many tool calls it asked for, and its usage
 * (the gateway's merged usage block when it has one, else the body's). Undefined for an exchange
 * that is no model request or got no answer (an error status, a refused budget).
 */
export function answerOfExchange(exchange: CassetteExchange): GatewayAnswer | undefined {
  const api = wireApiOf(exchange.endpoint);
  if (api === undefined || exchange.response.status < 200 || exchange.response.status >= 300) return undefined;
  const body = exchange.response.body.length > ANSWER_CHARACTERS ? '' : exchange.response.body;
  const { usageBlock, ...answer } = answerOfBody(api, body, exchange.response.is_stream);
  const usage = usageOfBlock(exchange.usage ?? usageBlock, api);
  return { ...answer, ...(answer.model === undefined && typeof exchange.model === 'string' ? { model: exchange.model } : {}), text: excerpt(answer.text), ...(usage === undefined ? {} : { usage }) };
}
