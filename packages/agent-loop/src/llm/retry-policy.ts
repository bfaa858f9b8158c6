import { ConfigurationError } from '@agentbench/schemas';

/** How failed model calls are retried: exponential backoff with jitter, honouring Retry-After. */
export interface RetryPolicy {
  /** Retries after the first try (so `maxRetries + 1` tries at most). */
  maxRetries: number;
  /** Backoff before the first retry; doubled for each further one. */
  baseDelayMs: number;
  /** Upper bound of any wait. A Retry-After longer than this ends the retries instead of being shortened. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000 });

export function resolveRetryPolicy(policy: Partial<RetryPolicy> | undefined): RetryPolicy {
  const resolved = { ...DEFAULT_RETRY_POLICY, ...stripUndefined(policy ?? {}) };
  if (!Number.isInteger(resolved.maxRetries) || resolved.maxRetries < 0) {
    throw new ConfigurationError('retry.maxRetries', `expected a whole number ≥ 0, found ${JSON.stringify(resolved.maxRetries)}`);
  }
  for (const field of ['baseDelayMs', 'maxDelayMs'] as const) {
    const value = resolved[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ConfigurationError(`retry.${field}`, `expected a number of milliseconds ≥ 0, found ${JSON.stringify(value)}`);
    }
  }
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/**
 * The backoff before retry number `retry` (1 for the first retry): base·2^(retry−1), capped,
 * with "equal jitter" (between half and all of it) so clients that failed together spread out.
 */
export function backoffDelayMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}

/**
 * The wait a provider asked for, in milliseconds: `retry-after-ms` (OpenAI), else `Retry-After`
 * as seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && /^\s*\d+(\.\d+)?\s*$/.test(milliseconds)) return Math.ceil(Number(milliseconds));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
