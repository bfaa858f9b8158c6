import { isRecord } from '@agentbench/helpers';
import type { RecordedRequest } from './recorded-request.js';

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((part) => (isRecord(part) && typeof part['text'] === 'string' ? [part['text']] : []));
  return texts.length === 0 ? undefined : texts.join('\n');
}

/**
 * The text of the last user message of a chat completions or Responses request, for routing
 * replies by content in a script function. Undefined when there is none.
 */
export function lastUserText(request: Pick<RecordedRequest, 'body'>): string | undefined {
  const body = request.body;
  if (!isRecord(body)) return undefined;
  if (typeof body['input'] === 'string') return body['input'];
  const items = Array.isArray(body['messages']) ? body['messages'] : Array.isArray(body['input']) ? body['input'] : [];
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item: unknown = items[index];
    if (isRecord(item) && item['role'] === 'user') return textOf(item['content']);
  }
  return undefined;
}

/** The `model` a request asked for, if it named one. */
export function requestedModel(request: Pick<RecordedRequest, 'body'>): string | undefined {
  const body = request.body;
  return isRecord(body) && typeof body['model'] === 'string' ? body['model'] : undefined;
}
