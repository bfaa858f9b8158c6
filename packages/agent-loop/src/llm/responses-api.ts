import type { LlmRequest, LlmResponse, LlmToolCall } from '../contract/llm-types.js';
import { readUsage, type ModelPricing } from './llm-usage.js';
import type { SamplingOptions } from './sampling-options.js';
import { isRecord } from '@agentbench/helpers';

type ReadAnswer = Omit<LlmResponse, 'attempts' | 'durationMs' | 'requestId'>;

/**
 * The JSON body of `POST /responses` (the API the original project used with OpenRouter).
 * Stateless: the whole conversation is sent as input items each time (`store: false`).
 */
export function responsesRequestBody(model: string, request: LlmRequest, sampling: SamplingOptions): Record<string, unknown> {
  const input: Record<string, unknown>[] = [];
  const instructions: string[] = [];
  for (const message of request.messages) {
    switch (message.role) {
      case 'system':
        instructions.push(message.content);
        break;
      case 'user':
        input.push({ type: 'message', role: 'user', content: message.content });
        break;
      case 'assistant':
        if (message.content !== null && message.content !== '') input.push({ type: 'message', role: 'assistant', content: message.content });
        for (const call of message.toolCalls ?? []) {
          input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
        }
        break;
      case 'tool':
        input.push({ type: 'function_call_output', call_id: message.toolCallId, output: message.content });
        break;
    }
  }
  const body: Record<string, unknown> = { model, input, store: false };
  if (instructions.length > 0) body['instructions'] = instructions.join('\n\n');
  if (request.tools !== undefined && request.tools.length > 0) {
    body['tools'] = request.tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false }));
    body['tool_choice'] = 'auto';
  }
  if (sampling.temperature !== undefined) body['temperature'] = sampling.temperature;
  if (sampling.topP !== undefined) body['top_p'] = sampling.topP;
  if (sampling.maxOutputTokens !== undefined) body['max_output_tokens'] = sampling.maxOutputTokens;
  return body;
}

/** Reads a Responses API answer: output_text parts of message items, and function_call items. */
export function readResponse(data: unknown, pricing: ModelPricing | undefined): ReadAnswer | string {
  if (!isRecord(data)) return `expected a JSON object, found ${data === null ? 'null' : typeof data}`;
  if (isRecord(data['error'])) return `the response reports an error: ${String(data['error']['message'] ?? JSON.stringify(data['error']))}`;
  const output = data['output'];
  if (!Array.isArray(output)) return 'the answer has no `output` list';
  const texts: string[] = [];
  const toolCalls: LlmToolCall[] = [];
  for (const [position, item] of output.entries()) {
    if (!isRecord(item)) continue;
    if (item['type'] === 'message' && Array.isArray(item['content'])) {
      for (const part of item['content']) {
        if (isRecord(part) && part['type'] === 'output_text' && typeof part['text'] === 'string') texts.push(part['text']);
      }
    } else if (item['type'] === 'function_call') {
      if (typeof item['name'] !== 'string') return `\`output[${position}]\` is a function_call without a name`;
      const rawArguments = item['arguments'];
      const id = typeof item['call_id'] === 'string' ? item['call_id'] : typeof item['id'] === 'string' ? item['id'] : `call_${position}`;
      toolCalls.push({
        id,
        name: item['name'],
        arguments: typeof rawArguments === 'string' ? rawArguments : rawArguments === undefined ? '' : JSON.stringify(rawArguments),
      });
    }
  }
  const status = data['status'];
  const incomplete = isRecord(data['incomplete_details']) ? data['incomplete_details']['reason'] : undefined;
  const finishReason =
    status === 'incomplete'
      ? incomplete === 'max_output_tokens'
        ? 'length'
        : typeof incomplete === 'string'
          ? incomplete
          : 'incomplete'
      : toolCalls.length > 0
        ? 'tool_calls'
        : typeof status === 'string'
          ? status === 'completed'
            ? 'stop'
            : status
          : null;
  return {
    text: texts.length > 0 ? texts.join('') : null,
    toolCalls,
    finishReason,
    model: typeof data['model'] === 'string' ? data['model'] : '',
    usage: readUsage(data['usage'], pricing),
  };
}
