import type { FinishReason } from '../replies/fake-reply.js';
import type { ResolvedCompletion } from '../openai/resolved-completion.js';
import { splitArguments, splitText } from '../openai/resolved-completion.js';

type JsonObject = Record<string, unknown>;

/** Our finish reasons in Anthropic's words (`refusal` is what a content filter stop is called there). */
const STOP_REASONS: Record<FinishReason, string> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

function messageId(completion: ResolvedCompletion): string {
  return `msg_fake_${completion.sequence}`;
}

/** The tool input as an object: the scripted arguments parsed; a raw string that is not JSON is sent as is (a malformed answer). */
function toolInput(argumentsText: string): unknown {
  try {
    return JSON.parse(argumentsText) as unknown;
  } catch {
    return argumentsText;
  }
}

function usage(completion: ResolvedCompletion, outputTokens: number): JsonObject {
  return {
    input_tokens: completion.promptTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

/** The content blocks: a text block when there is text (or nothing else), then one tool_use block per tool call. */
function contentBlocks(completion: ResolvedCompletion): JsonObject[] {
  const blocks: JsonObject[] = [];
  if (completion.text !== null || completion.toolCalls.length === 0) blocks.push({ type: 'text', text: completion.text ?? '' });
  for (const call of completion.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
  return blocks;
}

function messageObject(completion: ResolvedCompletion, state: { content: JsonObject[]; stopReason: string | null; outputTokens: number }): JsonObject {
  return {
    id: messageId(completion),
    type: 'message',
    role: 'assistant',
    model: completion.model,
    content: state.content,
    stop_reason: state.stopReason,
    stop_sequence: null,
    usage: usage(completion, state.outputTokens),
  };
}

/** The body of a non-streaming `POST /v1/messages`, as Anthropic sends it. */
export function messageBody(completion: ResolvedCompletion): JsonObject {
  return messageObject(completion, { content: contentBlocks(completion), stopReason: STOP_REASONS[completion.finishReason], outputTokens: completion.completionTokens });
}

/**
 * The events of a streamed message, in Anthropic's order: `message_start` (the message with no
 * content, input usage), a `ping`, per content block `content_block_start`, its deltas
 * (`text_delta`, or `input_json_delta` pieces of a tool's input) and `content_block_stop`, then
 * `message_delta` (stop reason and the final usage) and `message_stop`. Each element is one
 * complete SSE frame with `event:` naming its type.
 */
export function messageStreamFrames(completion: ResolvedCompletion): string[] {
  const frames: string[] = [];
  const emit = (type: string, payload: JsonObject): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`);
  };
  emit('message_start', { message: messageObject(completion, { content: [], stopReason: null, outputTokens: 1 }) });
  emit('ping', {});
  let index = 0;
  if (completion.text !== null || completion.toolCalls.length === 0) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of splitText(completion.text ?? '')) emit('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    emit('content_block_stop', { index });
    index += 1;
  }
  for (const call of completion.toolCalls) {
    emit('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    // Anthropic opens every tool input with an empty piece.
    emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const piece of splitArguments(call.arguments)) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    emit('content_block_stop', { index });
    index += 1;
  }
  emit('message_delta', {
    delta: { stop_reason: STOP_REASONS[completion.finishReason], stop_sequence: null },
    usage: { input_tokens: completion.promptTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: completion.completionTokens },
  });
  emit('message_stop', {});
  return frames;
}
