import * as v from 'valibot';
import { IsoTimestampSchema, NonNegativeIntegerSchema, PositiveIntegerSchema } from '../shared/primitives.js';
import { StopReasonSchema } from './stop-reason.js';

/** The `format` of a cassette's header line; a file without it is not a cassette. */
export const CASSETTE_FORMAT = 'agentbench.cassette';
export const CASSETTE_FORMAT_VERSION = 1;

/** Where an exchange's answer came from: the upstream model (`live`) or an earlier cassette (`cassette`, during a replay). */
export const CASSETTE_EXCHANGE_SOURCES = ['live', 'cassette'] as const;

/**
 * Where a recorded answer came from when it never crossed the wire: `judge-cache` is an LLM judge
 * answer served from the judge's disk cache, kept so a replay without that cache can serve it.
 */
export const CASSETTE_SERVED_FROM = ['judge-cache'] as const;

/** The budgets a model gateway enforces: model requests, tokens, cost, time. */
export const GATEWAY_BUDGETS = ['requests', 'tokens', 'cost', 'time'] as const;

/**
 * The first line of `cassette.jsonl`: what was recorded, so a replay can refuse a cassette of
 * another task or scenario, or of another repeat.
 */
export const CassetteHeaderSchema = v.object({
  type: v.literal('header'),
  format: v.literal(CASSETTE_FORMAT),
  version: v.literal(CASSETTE_FORMAT_VERSION),
  created_at: IsoTimestampSchema,
  harness_version: v.string(),
  /** The task of an agent attempt; null for a scenario run or a bare `ab proxy`. */
  task_id: v.nullish(v.string()),
  /** The scenario of a scenario run; null otherwise. */
  scenario_id: v.nullish(v.string()),
  /** The attempt's repeat index (0 for a single attempt): part of every exchange key, so repeats stay independent. */
  repeat_index: NonNegativeIntegerSchema,
  /** Set on a replay's own cassette: the cassette it was served from and, for a replay-then-live fork, the step it went live at. */
  replay_of: v.nullish(
    v.object({
      cassette: v.string(),
      forked_at: v.nullish(v.object({ role: v.string(), step: PositiveIntegerSchema })),
    }),
  ),
});
export type CassetteHeader = v.InferOutput<typeof CassetteHeaderSchema>;

/** One model exchange: the request as sent, the response as received (a stream as its raw event text). */
export const CassetteExchangeSchema = v.object({
  type: v.literal('exchange'),
  /** Who asked: `agent`, `simulator`, `judge`, or a bare proxy's role. */
  role: v.string(),
  /** 1-based position among this role's exchanges: the "step" a divergence names. */
  step: PositiveIntegerSchema,
  /** The path below the role's base URL, e.g. `/chat/completions`, `/responses`. */
  endpoint: v.string(),
  method: v.string(),
  model: v.nullish(v.string()),
  /** sha256 of the endpoint and the normalised request body. */
  request_hash: v.string(),
  /** 1 for the first request with this hash in this role, 2 for the second (a retry after a 429)... */
  occurrence: PositiveIntegerSchema,
  repeat_index: NonNegativeIntegerSchema,
  /** `hash:occurrence:repeat`: what a replay looks the request up by. */
  key: v.string(),
  request: v.object({
    /** Headers that shape the answer (content type, accept); never credentials. */
    headers: v.record(v.string(), v.string()),
    /** The body as sent: parsed JSON, or the raw text when it is not JSON. */
    body: v.unknown(),
  }),
  response: v.object({
    status: v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(599)),
    headers: v.record(v.string(), v.string()),
    /** The body exactly as received, as text: JSON, an error page, or a server-sent event stream. */
    body: v.string(),
    is_stream: v.boolean(),
  }),
  /** The usage block of the answer (a stream's last one), as the provider sent it. */
  usage: v.nullish(v.record(v.string(), v.unknown())),
  latency_ms: NonNegativeIntegerSchema,
  source: v.picklist(CASSETTE_EXCHANGE_SOURCES),
  /** Set when the proxy could not reach the upstream and answered 502 itself. */
  upstream_error: v.nullish(v.string()),
  /** Set when the answer did not come over HTTP at recording time (a judge disk-cache hit); the request is the one the client would have sent. Absent in older cassettes. */
  served_from: v.optional(v.picklist(CASSETTE_SERVED_FROM)),
  /**
   * Set when the gateway refused the request because a budget was spent (the answer is its own
   * error, never forwarded): which budget, the stop reason the attempt records, the limit and
   * what had been used. Absent in older cassettes.
   */
  budget_stop: v.optional(
    v.object({
      budget: v.picklist(GATEWAY_BUDGETS),
      stop_reason: StopReasonSchema,
      limit: v.number(),
      used: v.number(),
    }),
  ),
});
export type CassetteExchange = v.InferOutput<typeof CassetteExchangeSchema>;
