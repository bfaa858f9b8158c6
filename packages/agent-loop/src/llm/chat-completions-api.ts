import type { LlmRequest, LlmResponse, LlmToolCall } from '../contract/llm-types.js';
import { readUsage, type ModelPricing } from './llm-usage.js';
import type { SamplingOptions } from './sampling-options.js';
import { isRecord } from '@agentbench/helpers';

type ReadAnswer = Omit<LlmResponse, 'attempts' | 'durationMs' | 'requestId'>;

/** The JSON body of `POST /chat/completions` for a provider-neutral request. */
export function chatRequestBody(model: string, request: LlmRequest, sampling: SamplingOptions): Record<string, unknown> {
  const messages = request.messages.map((message) => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        const mapped: Record<string, unknown> = { role: 'assistant', content: message.content };
        if (calls.length > 0) {
          mapped['tool_calls'] = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
        }
        return mapped;
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    }
  });
  const body: Record<string, unknown> = { model, messages };
  if (request.tools !== undefined && request.tools.length > 0) {
    body['tools'] = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    body['tool_choice'] = 'auto';
  }
  if (sampling.temperature !== undefined) body['temperature'] = sampling.temperature;
  if (sampling.topP !== undefined) body['top_p'] = sampling.topP;
  if (sampling.maxOutputTokens !== undefined) body['max_tokens'] = sampling.maxOutputTokens;
  return body;
}

/** Reads a chat completion; a string names what is missing when the answer cannot be used. */
export function readChatCompletion(data: unknown, pricing: ModelPricing | undefined): ReadAnswer | string {
  if (!isRecord(data)) return `expected a JSON object, found ${data === null ? 'null' : typeof data}`;
  const choices = data['choices'];
  if (!Array.isArray(choices) || choices.length === 0) return 'the answer has no `choices`';
  const choice = choices[0];
  if (!isRecord(choice) || !isRecord(choice['message'])) return '`choices[0].message` is missing';
  const message = choice['message'];
  const content = message['content'];
  const toolCalls: LlmToolCall[] = [];
  const rawCalls = message['tool_calls'];
  if (rawCalls !== undefined && rawCalls !== null) {
    if (!Array.isArray(rawCalls)) return '`choices[0].message.tool_calls` is not a list';
    for (const [position, call] of rawCalls.entries()) {
      if (!isRecord(call) || !isRecord(call['function']) || typeof call['function']['name'] !== 'string') {
        return `\`choices[0].message.tool_calls[${position}]\` has no function name`;
      }
      const rawArguments = call['function']['arguments'];
      toolCalls.push({
        id: typeof call['id'] === 'string' && call['id'] !== '' ? call['id'] : `call_${position}`,
        name: call['function']['name'],
        // Some servers send arguments as an object rather than its JSON text.
        arguments: typeof rawArguments === 'string' ? rawArguments : rawArguments === undefined ? '' : JSON.stringify(rawArguments),
      });
    }
  }
  return {
    text: typeof content === 'string' ? content : null,
    toolCalls,
    finishReason: typeof choice['finish_reason'] === 'string' ? choice['finish_reason'] : null,
    model: typeof data['model'] === 'string' ? data['model'] : '',
    usage: readUsage(data['usage'], pricing),
  };
}
