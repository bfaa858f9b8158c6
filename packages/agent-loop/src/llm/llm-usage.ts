import { ConfigurationError } from '@agentbench/schemas';
import type { LlmUsage } from '../contract/llm-types.js';

/** Prices of one model, used only when the provider does not send `usage.cost`. */
export interface ModelPricing {
  inputUsdPerMillionTokens: number;
  outputUsdPerMillionTokens: number;
}

export function checkPricing(pricing: ModelPricing | undefined, field = 'pricing'): ModelPricing | undefined {
  if (pricing === undefined) return undefined;
  for (const key of ['inputUsdPerMillionTokens', 'outputUsdPerMillionTokens'] as const) {
    const value = pricing[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ConfigurationError(`${field}.${key}`, `expected a price in USD ≥ 0, found ${JSON.stringify(value)}`);
    }
  }
  return pricing;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

/**
 * Reads a `usage` object of either API (`prompt_tokens`/`completion_tokens` or
 * `input_tokens`/`output_tokens`). Cost: `usage.cost` when the provider sends it (OpenRouter),
 * else the tokens times `pricing`, else unknown. Never estimated from text length.
 */
export function readUsage(usage: unknown, pricing: ModelPricing | undefined): LlmUsage {
  const record = typeof usage === 'object' && usage !== null ? (usage as Record<string, unknown>) : {};
  const inputTokens = count(record['prompt_tokens'] ?? record['input_tokens']);
  const outputTokens = count(record['completion_tokens'] ?? record['output_tokens']);
  const totalTokens =
    count(record['total_tokens']) ?? (inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : undefined);
  const result: LlmUsage = { costSource: 'unknown' };
  if (inputTokens !== undefined) result.inputTokens = inputTokens;
  if (outputTokens !== undefined) result.outputTokens = outputTokens;
  if (totalTokens !== undefined) result.totalTokens = totalTokens;
  const providerCost = record['cost'];
  if (typeof providerCost === 'number' && Number.isFinite(providerCost) && providerCost >= 0) {
    result.costUsd = providerCost;
    result.costSource = 'provider';
  } else if (pricing !== undefined && inputTokens !== undefined && outputTokens !== undefined) {
    result.costUsd = (inputTokens * pricing.inputUsdPerMillionTokens + outputTokens * pricing.outputUsdPerMillionTokens) / 1_000_000;
    result.costSource = 'pricing';
  }
  return result;
}
