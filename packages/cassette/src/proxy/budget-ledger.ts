import type { StopReason } from '@agentbench/schemas';
import { CassetteError } from '../errors/cassette-error.js';
import { readExchangeUsage, type ModelPrice } from './token-usage.js';

/** An attempt's budgets, enforced by the gateway on model requests. Each is optional. */
export interface GatewayBudget {
  /** Model requests forwarded or replayed (a retry counts: it reached the provider). */
  maxRequests?: number;
  /** Input plus output tokens, as the usage fields report them. */
  maxTokens?: number;
  /** US dollars: the provider's `usage.cost`, else tokens times `price`. */
  maxCostUsd?: number;
  /** Seconds since the gateway started. */
  maxTimeSec?: number;
  /** The model's price, for a provider that does not report cost. */
  price?: ModelPrice;
}

export type BudgetKind = 'requests' | 'tokens' | 'cost' | 'time';

/** The budget that stopped the attempt: the record's stop reason and what the agent was told. */
export interface BudgetStop {
  budget: BudgetKind;
  /** `MAX_STEPS` for requests (an installed agent's step is a model request), `MAX_TOKENS`, `MAX_COST`, `MAX_TIME`. */
  stopReason: Extract<StopReason, 'MAX_STEPS' | 'MAX_TOKENS' | 'MAX_COST' | 'MAX_TIME'>;
  limit: number;
  used: number;
  /** The message the client was sent. */
  message: string;
}

/** What the attempt's model requests used so far. */
export interface GatewayUsage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** The known part of the cost; `unpricedRequests` answers had none. */
  costUsd: number;
  unpricedRequests: number;
}

const STOP_REASONS = { requests: 'MAX_STEPS', tokens: 'MAX_TOKENS', cost: 'MAX_COST', time: 'MAX_TIME' } as const;
const UNITS = { requests: 'model requests', tokens: 'tokens', cost: 'USD', time: 's' } as const;

function checkLimit(value: unknown, field: string, isInteger: boolean): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (isInteger && !Number.isInteger(value))) {
    throw new CassetteError(`budget.${field}: expected ${isInteger ? 'a whole number' : 'a number'} > 0, found ${JSON.stringify(value)}`);
  }
}

/** Fails with a CassetteError naming the first budget field that is not a positive number. */
export function checkBudget(budget: GatewayBudget): void {
  checkLimit(budget.maxRequests, 'maxRequests', true);
  checkLimit(budget.maxTokens, 'maxTokens', true);
  checkLimit(budget.maxCostUsd, 'maxCostUsd', false);
  checkLimit(budget.maxTimeSec, 'maxTimeSec', false);
  if (budget.price !== undefined) {
    for (const key of ['inputUsdPerMillionTokens', 'outputUsdPerMillionTokens'] as const) {
      const value = budget.price[key];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new CassetteError(`budget.price.${key}: expected a price in USD >= 0, found ${JSON.stringify(value)}`);
    }
  }
}

/**
 * Counts the model requests, tokens and cost of an attempt and says when a budget is spent.
 * A request is refused once a budget is reached; the request that crosses a token or cost limit
 * is answered (its usage is known only after it), so the total may end above the limit by one answer.
 */
export class BudgetLedger {
  readonly #budget: GatewayBudget;
  readonly #startedAt: number;
  readonly #usage: GatewayUsage = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedRequests: 0 };

  constructor(budget: GatewayBudget, startedAt: number) {
    checkBudget(budget);
    this.#budget = budget;
    this.#startedAt = startedAt;
  }

  get usage(): GatewayUsage {
    return { ...this.#usage };
  }

  /** The budget a new model request would exceed, if any. */
  exceeded(now: number): BudgetStop | undefined {
    const budget = this.#budget;
    const elapsedSec = (now - this.#startedAt) / 1000;
    const used = this.#usage;
    if (budget.maxRequests !== undefined && used.requests >= budget.maxRequests) return this.#stop('requests', budget.maxRequests, used.requests);
    if (budget.maxTokens !== undefined && used.inputTokens + used.outputTokens >= budget.maxTokens) return this.#stop('tokens', budget.maxTokens, used.inputTokens + used.outputTokens);
    if (budget.maxCostUsd !== undefined && used.costUsd >= budget.maxCostUsd) return this.#stop('cost', budget.maxCostUsd, used.costUsd);
    if (budget.maxTimeSec !== undefined && elapsedSec >= budget.maxTimeSec) return this.#stop('time', budget.maxTimeSec, Math.round(elapsedSec));
    return undefined;
  }

  /** A model request is on its way (forwarded or served from a cassette). */
  countRequest(): void {
    this.#usage.requests += 1;
  }

  /** A model answer's usage block arrived. */
  countAnswer(usage: Record<string, unknown> | null | undefined): void {
    // An answer without usage (an error, a cut stream) reports no spending.
    if (usage === null || usage === undefined) return;
    const read = readExchangeUsage(usage, this.#budget.price);
    this.#usage.inputTokens += read.inputTokens;
    this.#usage.outputTokens += read.outputTokens;
    if (read.costUsd === undefined) this.#usage.unpricedRequests += 1;
    else this.#usage.costUsd += read.costUsd;
  }

  #stop(budget: BudgetKind, limit: number, used: number): BudgetStop {
    const shown = (value: number): string => (budget === 'cost' ? value.toFixed(4) : String(value));
    const message = `agentbench gateway: the attempt's ${budget} budget is spent (${shown(used)} of ${shown(limit)} ${UNITS[budget]}); no more model requests are allowed`;
    return { budget, stopReason: STOP_REASONS[budget], limit, used, message };
  }
}
