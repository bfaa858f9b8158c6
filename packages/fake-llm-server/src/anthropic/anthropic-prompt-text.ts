import { isRecord } from '@agentbench/helpers';
/** The texts of Anthropic content: a string, or blocks (text, tool_use input, tool_result content). */
function blockTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block): string[] => {
    if (!isRecord(block)) return [];
    if (typeof block['text'] === 'string') return [block['text']];
    if (block['type'] === 'tool_use') return [String(block['name'] ?? ''), JSON.stringify(block['input'] ?? {})];
    if (block['type'] === 'tool_result') return blockTexts(block['content']);
    return [];
  });
}

/** The text an Anthropic Messages request sends: the system prompt, message contents, earlier tool calls and their results. */
export function anthropicPromptText(body: Record<string, unknown>): string[] {
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  return [...blockTexts(body['system']), ...messages.flatMap((message) => (isRecord(message) ? blockTexts(message['content']) : []))];
}
