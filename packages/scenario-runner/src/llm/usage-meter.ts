import type { LlmUsage } from '@agentbench/agent-loop';
import { isRecord } from '@agentbench/helpers';

/** Who spent tokens: the agent under test, the user simulator, or the judge (evaluations and termination checks). */
export const LLM_ROLES = ['agent', 'simulator', 'judge'] as const;
export type LlmRole = (typeof LLM_ROLES)[number];

/** Counted usage of one role, from the API's `usage` fields (never estimated). */
export interface RoleUsage {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Wall time spent waiting for this role's LLM answers (requests the runner makes itself; the evaluators' judge calls are not timed). */
  llm_time_ms: number;
  /** Set only when the provider reported a cost (or prices were configured). */
  cost_usd?: number;
}

function emptyUsage(): RoleUsage {
  return { calls: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, llm_time_ms: 0 };
}

/** Adds up LLM calls and tokens per role over a run. */
export class UsageMeter {
  private readonly byRole: Record<LlmRole, RoleUsage> = { agent: emptyUsage(), simulator: emptyUsage(), judge: emptyUsage() };

  /** One answered call with its usage as the LLM client read it. */
  recordCall(role: LlmRole, usage: Pick<LlmUsage, 'inputTokens' | 'outputTokens' | 'totalTokens' | 'costUsd'> | undefined, durationMs?: number): void {
    const entry = this.byRole[role];
    entry.calls += 1;
    if (durationMs !== undefined) entry.llm_time_ms += durationMs;
    const input = usage?.inputTokens ?? 0;
    const output = usage?.outputTokens ?? 0;
    entry.input_tokens += input;
    entry.output_tokens += output;
    entry.total_tokens += usage?.totalTokens ?? input + output;
    if (usage?.costUsd !== undefined) entry.cost_usd = (entry.cost_usd ?? 0) + usage.costUsd;
  }

  /** Calls and tokens reported in another shape (the judge's `{promptTokens, completionTokens, totalTokens}`). */
  recordCalls(role: LlmRole, calls: number, usage: { promptTokens?: number; completionTokens?: number; totalTokens?: number }, durationMs?: number): void {
    const entry = this.byRole[role];
    entry.calls += calls;
    if (durationMs !== undefined) entry.llm_time_ms += durationMs;
    entry.input_tokens += usage.promptTokens ?? 0;
    entry.output_tokens += usage.completionTokens ?? 0;
    entry.total_tokens += usage.totalTokens ?? (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0);
  }

  snapshot(): Record<LlmRole, RoleUsage> {
    return structuredClone(this.byRole);
  }

  get totalCalls(): number {
    return LLM_ROLES.reduce((sum, role) => sum + this.byRole[role].calls, 0);
  }

  /** Time spent waiting for LLM answers, all roles. */
  get totalLlmTimeMs(): number {
    return LLM_ROLES.reduce((sum, role) => sum + this.byRole[role].llm_time_ms, 0);
  }

  get totalTokens(): number {
    return LLM_ROLES.reduce((sum, role) => sum + this.byRole[role].total_tokens, 0);
  }
}

/**
 * Judge usage an evaluation reported in its details (`llm_judge`, `user_satisfaction` by LLM, ...):
 * `{usage: {promptTokens, completionTokens, totalTokens}, calls?}`. Cache hits spend nothing and are not calls.
 */
export function judgeUsageOf(details: unknown): { calls: number; usage: { promptTokens: number; completionTokens: number; totalTokens: number } } | undefined {
  if (!isRecord(details) || !isRecord(details['usage'])) return undefined;
  const usage = details['usage'];
  const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const cacheHits = number(details['cacheHits']);
  const calls = typeof details['calls'] === 'number' ? Math.max(0, details['calls'] - cacheHits) : number(usage['totalTokens']) > 0 ? 1 : 0;
  return { calls, usage: { promptTokens: number(usage['promptTokens']), completionTokens: number(usage['completionTokens']), totalTokens: number(usage['totalTokens']) } };
}
