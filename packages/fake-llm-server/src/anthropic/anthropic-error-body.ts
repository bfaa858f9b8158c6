/** Anthropic's error type for an HTTP status, as its API documents them. */
export function anthropicErrorType(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

/** An error body in Anthropic's shape: `{ type: 'error', error: { type, message } }`. */
export function anthropicErrorBody(status: number, message: string): Record<string, unknown> {
  return { type: 'error', error: { type: anthropicErrorType(status), message } };
}
