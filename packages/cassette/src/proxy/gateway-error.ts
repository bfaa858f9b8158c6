import type { ServerResponse } from 'node:http';
import type { ApiProvider } from './wire-api.js';

/** The errors the gateway answers itself, named in the body and in the `x-agentbench-error` header. */
export type GatewayErrorCode = 'budget_exceeded' | 'upstream_unreachable' | 'no_upstream' | 'cassette_divergence' | 'not_found' | 'proxy_error';

/** The header naming a gateway's own error, so a harness (or a test) tells it from the upstream's without parsing the body. */
export const GATEWAY_ERROR_HEADER = 'x-agentbench-error';

/**
 * An error body in the dialect of the API asked: OpenAI's `{ error: { message, type, param, code } }`
 * or Anthropic's `{ type: 'error', error: { type, message } }`, so the client parses it as it parses
 * its provider's errors and shows the message.
 */
export function gatewayErrorBody(provider: ApiProvider, code: GatewayErrorCode, message: string): Record<string, unknown> {
  if (provider === 'anthropic') return { type: 'error', error: { type: code, message } };
  return { error: { message, type: code, param: null, code } };
}

/** A gateway error as sent, for the cassette. */
export interface SentGatewayError {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends one of the gateway's own errors. `isFinal` adds `x-should-retry: false`: a retry would get the same answer. */
export function sendGatewayError(
  response: ServerResponse,
  options: { provider: ApiProvider; status: number; code: GatewayErrorCode; message: string; isFinal: boolean },
): SentGatewayError {
  const body = JSON.stringify(gatewayErrorBody(options.provider, options.code, options.message));
  const headers: Record<string, string> = { 'content-type': 'application/json', [GATEWAY_ERROR_HEADER]: options.code };
  if (options.isFinal) headers['x-should-retry'] = 'false';
  if (!response.headersSent && !response.destroyed) response.writeHead(options.status, headers).end(body);
  return { status: options.status, headers, body };
}
