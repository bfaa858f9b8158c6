import { isRecord } from '@agentbench/helpers';
/** Whitespace-separated words: the deterministic stand-in for tokens. */
export function countWords(text: string): number {
  const words = text.trim().split(/\s+/);
  return words[0] === '' ? 0 : words.length;
}

/** Every piece of text in message content: a string, or parts with `text` (chat and Responses shapes). */
function contentText(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => (isRecord(part) && typeof part['text'] === 'string' ? [part['text']] : []));
}

/** The text a chat completions request sends: message contents and earlier tool calls. */
export function chatPromptText(body: Record<string, unknown>): string[] {
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  return messages.flatMap((message) => {
    if (!isRecord(message)) return [];
    const toolCalls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
    const callTexts = toolCalls.flatMap((call) => {
      const callFunction = isRecord(call) ? call['function'] : undefined;
      if (!isRecord(callFunction)) return [];
      return [String(callFunction['name'] ?? ''), String(callFunction['arguments'] ?? '')];
    });
    return [...contentText(message['content']), ...callTexts];
  });
}

/** The text a Responses API request sends: instructions, input text, function calls and their outputs. */
export function responsesPromptText(body: Record<string, unknown>): string[] {
  const texts: string[] = typeof body['instructions'] === 'string' ? [body['instructions']] : [];
  const input = body['input'];
  if (typeof input === 'string') return [...texts, input];
  if (!Array.isArray(input)) return texts;
  for (const item of input) {
    if (!isRecord(item)) continue;
    texts.push(...contentText(item['content']));
    if (typeof item['output'] === 'string') texts.push(item['output']);
    if (typeof item['arguments'] === 'string') texts.push(String(item['name'] ?? ''), item['arguments']);
  }
  return texts;
}

/** Word count of several texts together. */
export function countWordsIn(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + countWords(text), 0);
}
