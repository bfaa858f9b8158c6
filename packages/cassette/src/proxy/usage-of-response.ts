import { isRecord } from '@agentbench/helpers';
/**
 * The usage block of an answer as the provider sent it: `usage` of a body, a Chat Completions
 * chunk or an Anthropic `message_delta`; `response.usage` of a Responses event; `message.usage`
 * of Anthropic's `message_start`. For a stream, the blocks are merged in order, later fields
 * winning: Anthropic sends the input tokens in `message_start` and the final output tokens in
 * `message_delta`, the OpenAI APIs send one complete block at the end.
 */
export function usageOfResponse(body: string, isStream: boolean): Record<string, unknown> | null {
  if (!isStream) return usageOf(parseJson(body));
  let usage: Record<string, unknown> | null = null;
  for (const line of body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const found = usageOf(parseJson(line.slice(5).trim()));
    if (found !== null) usage = { ...(usage ?? {}), ...found };
  }
  return usage;
}

function usageOf(value: unknown): Record<string, unknown> | null {
  if (!isRecord(value)) return null;
  if (isRecord(value['usage'])) return value['usage'];
  for (const key of ['response', 'message']) {
    const inner = value[key];
    if (isRecord(inner) && isRecord(inner['usage'])) return inner['usage'];
  }
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

