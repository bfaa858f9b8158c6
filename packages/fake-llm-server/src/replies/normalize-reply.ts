import { describeValue } from '@agentbench/helpers';
import { FakeLlmServerError } from '../errors/fake-llm-server-error.js';
import { FAULTS, FINISH_REASONS, type FakeReply, type NormalizedMessage, type NormalizedReply } from './fake-reply.js';
import { isRecord } from '@agentbench/helpers';

const MESSAGE_FIELDS = ['text', 'toolCalls', 'usage', 'finishReason', 'model', 'delayMs'];
const STATUS_FIELDS = ['status', 'body', 'headers', 'delayMs'];
const FAULT_FIELDS = ['fault', 'afterChunks', ...MESSAGE_FIELDS];
const TOOL_CALL_FIELDS = ['name', 'arguments', 'id'];
const USAGE_FIELDS = ['prompt_tokens', 'completion_tokens'];

// Spellings people reach for first, from the OpenAI wire format.
const SUGGESTIONS: Record<string, string> = {
  tool_calls: 'toolCalls',
  finish_reason: 'finishReason',
  content: 'text',
  delay: 'delayMs',
  delay_ms: 'delayMs',
  after_chunks: 'afterChunks',
};

function fail(field: string, message: string): never {
  throw new FakeLlmServerError(`${field}: ${message}`);
}

function checkKnownFields(value: Record<string, unknown>, allowed: readonly string[], field: string): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const suggestion = SUGGESTIONS[key];
    const hint = suggestion !== undefined && allowed.includes(suggestion) ? ` (did you mean ${suggestion}?)` : '';
    fail(`${field}.${key}`, `unknown field${hint}; expected one of ${allowed.join(', ')}`);
  }
}

function optionalString(value: Record<string, unknown>, key: string, field: string): string | undefined {
  const item = value[key];
  if (item === undefined) return undefined;
  if (typeof item !== 'string') fail(`${field}.${key}`, `expected a string, found ${describeValue(item)}`);
  return item;
}

function optionalCount(value: Record<string, unknown>, key: string, field: string): number | undefined {
  const item = value[key];
  if (item === undefined) return undefined;
  if (typeof item !== 'number' || !Number.isInteger(item) || item < 0) {
    fail(`${field}.${key}`, `expected an integer >= 0, found ${describeValue(item)}`);
  }
  return item;
}

function delayOf(value: Record<string, unknown>, field: string): number {
  const delay = value['delayMs'];
  if (delay === undefined) return 0;
  if (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0) {
    fail(`${field}.delayMs`, `expected milliseconds (a number >= 0), found ${describeValue(delay)}`);
  }
  return delay;
}

function normalizeMessage(value: Record<string, unknown>, field: string): NormalizedMessage {
  const text = optionalString(value, 'text', field);
  const rawToolCalls = value['toolCalls'];
  if (rawToolCalls !== undefined && !Array.isArray(rawToolCalls)) {
    fail(`${field}.toolCalls`, `expected an array of {name, arguments}, found ${describeValue(rawToolCalls)}`);
  }
  const toolCalls = (rawToolCalls ?? []).map((call: unknown, index: number) => {
    const callField = `${field}.toolCalls[${index}]`;
    if (!isRecord(call)) fail(callField, `expected an object {name, arguments}, found ${describeValue(call)}`);
    checkKnownFields(call, TOOL_CALL_FIELDS, callField);
    const name = call['name'];
    if (typeof name !== 'string' || name === '') fail(`${callField}.name`, `expected a non-empty string, found ${describeValue(name)}`);
    const callArguments = call['arguments'] ?? {};
    if (typeof callArguments !== 'string' && (typeof callArguments !== 'object' || callArguments === null)) {
      fail(`${callField}.arguments`, `expected an object or a raw string, found ${describeValue(callArguments)}`);
    }
    return {
      id: optionalString(call, 'id', callField),
      name,
      arguments: typeof callArguments === 'string' ? callArguments : JSON.stringify(callArguments),
    };
  });
  const rawUsage = value['usage'];
  if (rawUsage !== undefined && !isRecord(rawUsage)) {
    fail(`${field}.usage`, `expected an object {prompt_tokens, completion_tokens}, found ${describeValue(rawUsage)}`);
  }
  let usage: NormalizedMessage['usage'];
  if (rawUsage !== undefined) {
    checkKnownFields(rawUsage, USAGE_FIELDS, `${field}.usage`);
    usage = {};
    const promptTokens = optionalCount(rawUsage, 'prompt_tokens', `${field}.usage`);
    const completionTokens = optionalCount(rawUsage, 'completion_tokens', `${field}.usage`);
    if (promptTokens !== undefined) usage.prompt_tokens = promptTokens;
    if (completionTokens !== undefined) usage.completion_tokens = completionTokens;
  }
  const finishReason = value['finishReason'];
  if (finishReason !== undefined && !(FINISH_REASONS as readonly unknown[]).includes(finishReason)) {
    fail(`${field}.finishReason`, `expected one of ${FINISH_REASONS.join(', ')}, found ${describeValue(finishReason)}`);
  }
  return {
    text: text ?? null,
    toolCalls,
    usage,
    finishReason: finishReason as NormalizedMessage['finishReason'],
    model: optionalString(value, 'model', field),
  };
}

function normalizeHeaders(value: unknown, field: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) fail(field, `expected an object of header names to values, found ${describeValue(value)}`);
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value)) {
    if (typeof headerValue !== 'string' && typeof headerValue !== 'number') {
      fail(`${field}.${name}`, `expected a string or a number, found ${describeValue(headerValue)}`);
    }
    headers[name.toLowerCase()] = String(headerValue);
  }
  return headers;
}

/**
 * Checks one scripted reply and brings it to one shape. `field` names it in errors, such as
 * `replies[2]` or `demo.json: [2]`.
 */
export function normalizeReply(reply: FakeReply, field: string): NormalizedReply {
  if (typeof reply === 'string') return { kind: 'message', message: normalizeMessage({ text: reply }, field), delayMs: 0 };
  if (!isRecord(reply)) {
    fail(field, `expected a string or an object ({text, toolCalls}, {status}, or {fault}), found ${describeValue(reply)}`);
  }
  if ('status' in reply && 'fault' in reply) fail(field, 'has both status and fault; a reply is one or the other');
  if ('status' in reply) {
    checkKnownFields(reply, STATUS_FIELDS, field);
    const status = reply['status'];
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
      fail(`${field}.status`, `expected an HTTP status from 200 to 599, found ${describeValue(status)}`);
    }
    return {
      kind: 'status',
      status,
      body: reply['body'],
      headers: normalizeHeaders(reply['headers'], `${field}.headers`),
      delayMs: delayOf(reply, field),
    };
  }
  if ('fault' in reply) {
    checkKnownFields(reply, FAULT_FIELDS, field);
    const fault = reply['fault'];
    if (!(FAULTS as readonly unknown[]).includes(fault)) {
      fail(`${field}.fault`, `expected one of ${FAULTS.join(', ')}, found ${describeValue(fault)}`);
    }
    return {
      kind: 'fault',
      fault: fault as (typeof FAULTS)[number],
      afterChunks: optionalCount(reply, 'afterChunks', field),
      message: normalizeMessage(reply, field),
      delayMs: delayOf(reply, field),
    };
  }
  checkKnownFields(reply, MESSAGE_FIELDS, field);
  return { kind: 'message', message: normalizeMessage(reply, field), delayMs: delayOf(reply, field) };
}
