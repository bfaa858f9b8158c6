import type { IncomingHttpHeaders } from 'node:http';

/** The three model APIs the gateway speaks. */
export type WireApi = 'chat-completions' | 'responses' | 'anthropic-messages';

/** Who serves an API: the two OpenAI ones share an upstream and a key, Anthropic has its own. */
export type ApiProvider = 'openai' | 'anthropic';

/** Each API's endpoint below the base URL's `/v1`. */
const MODEL_ENDPOINTS: ReadonlyMap<string, WireApi> = new Map([
  ['/chat/completions', 'chat-completions'],
  ['/responses', 'responses'],
  ['/messages', 'anthropic-messages'],
]);

/**
 * The API of a model request (`POST /v1/chat/completions`, `/v1/responses`, `/v1/messages`,
 * with or without a query such as `?beta=true`), or undefined for anything else (a model list,
 * a token count): only model requests are budgeted.
 */
export function wireApiOf(method: string, endpoint: string): WireApi | undefined {
  return method === 'POST' ? MODEL_ENDPOINTS.get(endpoint) : undefined;
}

/**
 * Whether a request is one an agent needs of a model API: a model request, Anthropic's token
 * count (`POST /messages/count_tokens`), or the model list (`GET /models`, `GET /models/<id>`).
 * An attempt's gateway forwards nothing else: the key it adds must not also serve file uploads,
 * batches or fine-tuning jobs an agent might ask for.
 */
export function isModelApiRequest(method: string, endpoint: string): boolean {
  if (wireApiOf(method, endpoint) !== undefined) return true;
  if (method === 'POST' && endpoint === '/messages/count_tokens') return true;
  return method === 'GET' && (endpoint === '/models' || /^\/models\/[^/]+$/.test(endpoint));
}

/**
 * Whose upstream a request goes to: Anthropic for `/messages...` and for any request that
 * carries Anthropic's `anthropic-version` header (its `/v1/models`), else OpenAI.
 */
export function providerOf(endpoint: string, headers: IncomingHttpHeaders): ApiProvider {
  if (endpoint === '/messages' || endpoint.startsWith('/messages/')) return 'anthropic';
  return headers['anthropic-version'] === undefined ? 'openai' : 'anthropic';
}
