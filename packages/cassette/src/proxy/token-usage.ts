/** Prices of a model in USD per million tokens, used when the provider does not report `usage.cost`. */
export interface ModelPrice {
  inputUsdPerMillionTokens: number;
  outputUsdPerMillionTokens: number;
}

/** What one exchange used, as its API's usage fields say. */
export interface ExchangeUsage {
  inputTokens: number;
  outputTokens: number;
  /** Undefined when neither the provider (`usage.cost`) nor a price says. */
  costUsd: number | undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Reads a usage block of any of the three APIs: Chat Completions (`prompt_tokens`,
 * `completion_tokens`), Responses (`input_tokens`, `output_tokens`; cached tokens are inside
 * `input_tokens`) and Anthropic Messages (`input_tokens` plus `cache_creation_input_tokens` and
 * `cache_read_input_tokens`, which Anthropic counts apart, and `output_tokens`). Cost: the
 * provider's `usage.cost` (OpenRouter) when sent, else the tokens times `price`, else unknown.
 * Never estimated from text.
 */
export function readExchangeUsage(usage: Record<string, unknown> | null | undefined, price: ModelPrice | undefined): ExchangeUsage {
  const record = usage ?? {};
  const inputTokens =
    count(record['prompt_tokens'] ?? record['input_tokens']) + count(record['cache_creation_input_tokens']) + count(record['cache_read_input_tokens']);
  const outputTokens = count(record['completion_tokens'] ?? record['output_tokens']);
  const providerCost = record['cost'];
  let costUsd: number | undefined;
  if (typeof providerCost === 'number' && Number.isFinite(providerCost) && providerCost >= 0) costUsd = providerCost;
  else if (price !== undefined && usage !== null && usage !== undefined) {
    costUsd = (inputTokens * price.inputUsdPerMillionTokens + outputTokens * price.outputUsdPerMillionTokens) / 1_000_000;
  }
  return { inputTokens, outputTokens, costUsd };
}
