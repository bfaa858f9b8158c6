import { ConfigurationError } from '@agentbench/schemas';

/** The budgets of one run of the loop. */
export interface AgentLoopLimits {
  /** Tool calls the agent may make (the loop's own test runs do not count). */
  maxSteps: number;
  /** Wall-clock seconds for the whole loop, first test run included. */
  maxTimeSec: number;
  /** Stop after this many identical failures in a row (same tool error, or same failing test output). */
  repeatedFailureThreshold: number;
  /** Tokens (input + output, as the provider counts them) the agent may spend. */
  maxTokens?: number;
  /** US dollars the agent may spend (needs a provider that reports cost, or configured prices). */
  maxCostUsd?: number;
}

export const DEFAULT_LOOP_LIMITS: Readonly<Pick<AgentLoopLimits, 'maxSteps' | 'maxTimeSec' | 'repeatedFailureThreshold'>> = Object.freeze({
  maxSteps: 30,
  maxTimeSec: 1800,
  repeatedFailureThreshold: 3,
});

function checkNumber(value: unknown, field: string, isInteger: boolean, minimum: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || (isInteger && !Number.isInteger(value)) || value < minimum) {
    throw new ConfigurationError(`limits.${field}`, `expected ${isInteger ? 'a whole number' : 'a number'} ≥ ${minimum}, found ${JSON.stringify(value)}`);
  }
  return value;
}

/** Fills defaults and checks every limit. */
export function resolveLoopLimits(limits: Partial<AgentLoopLimits> = {}): AgentLoopLimits {
  const resolved: AgentLoopLimits = {
    maxSteps: checkNumber(limits.maxSteps ?? DEFAULT_LOOP_LIMITS.maxSteps, 'maxSteps', true, 1),
    maxTimeSec: checkNumber(limits.maxTimeSec ?? DEFAULT_LOOP_LIMITS.maxTimeSec, 'maxTimeSec', false, 0),
    repeatedFailureThreshold: checkNumber(limits.repeatedFailureThreshold ?? DEFAULT_LOOP_LIMITS.repeatedFailureThreshold, 'repeatedFailureThreshold', true, 2),
  };
  if (limits.maxTokens !== undefined) resolved.maxTokens = checkNumber(limits.maxTokens, 'maxTokens', true, 1);
  if (limits.maxCostUsd !== undefined) resolved.maxCostUsd = checkNumber(limits.maxCostUsd, 'maxCostUsd', false, 0);
  return resolved;
}
