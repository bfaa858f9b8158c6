/**
 * The usage block of an answer as the provider sent it: `usage` of a Chat Completions body or
 * chunk, `response.usage` of a Responses body or `response.completed` event. For a stream, the
 * last one sent.
 */
export function usageOfResponse(body: string, isStream: boolean): Record<string, unknown> | null {
  if (!isStream) return usageOf(parseJson(body));
  let usage: Record<string, unknown> | null = null;
  for (const line of body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const found = usageOf(parseJson(line.slice(5).trim()));
    if (found !== null) usage = found;
  }
  return usage;
}

function usageOf(value: unknown): Record<string, unknown> | null {
  if (!isObject(value)) return null;
  if (isObject(value['usage'])) return value['usage'];
  const response = value['response'];
  if (isObject(response) && isObject(response['usage'])) return response['usage'];
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
