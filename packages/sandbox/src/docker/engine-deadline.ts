import { SandboxError } from '../contract/sandbox-error.js';

/**
 * How long a container create or start may take. The engine's own create+start is a fraction of a
 * second (seconds on a loaded host or under gVisor); one that has not answered in two minutes is stuck,
 * and an attempt waiting on it would wait forever.
 */
export const ENGINE_CALL_TIMEOUT_MS = 120_000;

/**
 * Runs one Engine API call with a deadline (dockerode's `abortSignal`). An engine that has not answered
 * by then fails the call with an `engine_unavailable` SandboxError saying what it did not do, so the
 * caller (a run's engine-loss judgement among them) sees an engine failure rather than a hang.
 */
export async function withEngineDeadline<T>(what: string, timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    return await call(deadline);
  } catch (error) {
    if (deadline.aborted) throw new SandboxError('engine_unavailable', `the Docker engine did not ${what} within ${timeoutMs / 1000} s; it may be stuck`, { cause: error });
    throw error;
  }
}
