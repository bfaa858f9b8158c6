import { readFile, rename, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CASSETTE_FORMAT, CASSETTE_FORMAT_VERSION, CASSETTE_SERVED_FROM, HARNESS_VERSION, type CassetteExchange, type CassetteHeader } from '@agentbench/schemas';
import { CassetteWriter } from '../cassette-writer.js';
import { describeDivergence, type Divergence } from '../divergence.js';
import { CassetteError } from '../errors/cassette-error.js';
import { exchangeKey, requestHash } from '../normalize-request.js';
import { OccurrenceCounter } from '../occurrence-counter.js';
import type { Cassette } from '../read-cassette.js';
import { BudgetLedger, type BudgetStop, type GatewayBudget, type GatewayUsage } from './budget-ledger.js';
import { forwardToUpstream, type UpstreamAnswer } from './forward-to-upstream.js';
import { sendGatewayError } from './gateway-error.js';
import { checkUpstreams, credentialHeaders, endpointFor, targetUrl, type Upstreams } from './gateway-upstreams.js';
import { recordedRequestHeaders } from './http-headers.js';
import { listenGateway } from './listen-gateway.js';
import { usageOfResponse } from './usage-of-response.js';
import { isModelApiRequest, providerOf, wireApiOf } from './wire-api.js';

/** `record`: forward and keep; `replay`: serve from the cassette, offline; `replay-then-live`: serve from it until the first miss, then forward. */
export type ModelProxyMode = 'record' | 'replay' | 'replay-then-live';
export const MODEL_PROXY_MODES: readonly ModelProxyMode[] = ['record', 'replay', 'replay-then-live'];

export interface ModelProxyOptions {
  mode: ModelProxyMode;
  /** Where this proxy writes its exchanges (`cassette.jsonl`). A replay writes its own too, marked as a replay. Default: nothing written. */
  cassette?: string;
  /** The cassette a replay serves from; required unless `mode` is `record`. */
  replayFrom?: Cassette;
  /** The run the header names. Default: no task, no scenario, repeat 0. */
  run?: { taskId?: string | null; scenarioId?: string | null; repeatIndex?: number };
  /**
   * Where requests go when live: an OpenAI-compatible base URL (e.g. `https://openrouter.ai/api/v1`;
   * the client's credentials pass through), or per provider `{ openai, anthropic }` with the key the
   * gateway adds (`upstreamsFromEnvironment(process.env)` reads them as the SDKs do).
   */
  upstream?: Upstreams;
  /** Per role, when roles have different endpoints (the agent's model and the judge's). Wins over `upstream`. */
  upstreams?: Readonly<Record<string, Upstreams>>;
  /** Budgets on model requests (requests, tokens, cost, time); a spent one is answered with an error in the client's dialect. Default: none. */
  budget?: GatewayBudget;
  /** The role of requests under `/v1` (without a `/role/NAME` prefix). Default `agent`. */
  role?: string;
  /** Default 127.0.0.1: the proxy forwards credentials, so it listens on loopback only. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Default true. False: the socket is the only way in (needs `socketPath`). */
  listensOnLoopback?: boolean;
  /** Also listen on this unix socket (a path where nothing exists yet; removed at close): how a sandbox without network reaches the gateway. */
  socketPath?: string;
  /**
   * Default false. True: only model API requests are answered (`isModelApiRequest`: the three
   * APIs, Anthropic's token count, the model list); anything else gets a final 404 `not_found`
   * and never reaches the upstream. The attempt gateway sets it: the key it adds serves models only.
   */
  allowsOnlyModelApis?: boolean;
  /** Called once, when the first request the cassette does not hold arrives (`ab proxy --replay` prints it then). */
  onDivergence?: (divergence: Divergence) => void;
}

export interface ModelProxy extends AsyncDisposable {
  /**
   * The default role's base URL, ending in `/v1`: what `OPENAI_BASE_URL` is set to (Anthropic
   * clients take it without `/v1`). Socket only: `http://localhost/v1`, the paths a forwarder uses.
   */
  readonly url: string;
  /** The TCP port; 0 when the gateway listens on its socket only. */
  readonly port: number;
  /** The unix socket it listens on, if any. */
  readonly socketPath: string | undefined;
  /** A role's base URL: `<origin>/role/<role>/v1`. */
  baseUrlFor(role: string): string;
  /** The first budget that was spent, if one was: the attempt's stop reason. */
  readonly budgetStop: BudgetStop | undefined;
  /** What the model requests used so far (requests, tokens, cost), from the answers' usage fields. */
  readonly usage: GatewayUsage;
  /** The first request the cassette did not hold (replay modes). */
  readonly divergence: Divergence | undefined;
  /** Where a `replay-then-live` proxy went live. */
  readonly forkedAt: { role: string; step: number } | undefined;
  /** Exchanges answered so far (recorded, replayed or live). */
  readonly exchangeCount: number;
  /**
   * How the endpoint failed on the last exchange that reached it (connection refused or cut, a timeout, HTTP 5xx,
   * 429 or 408; a budget refusal of the gateway's own is not one), or undefined when it answered, or answered a client error (4xx): the harness's
   * evidence that an LLM failure was the endpoint's and not the agent's.
   */
  readonly lastEndpointFailure: string | undefined;
  /** Recorded exchanges no request asked for (replay modes): a replay that ended early leaves some. */
  unservedExchanges(): CassetteExchange[];
  /**
   * Records an answer a client got without asking over HTTP (a judge disk-cache hit), as the exchange
   * its request would have made: counted among the role's steps, keyed by the same hash, marked
   * `served_from`. A replay then serves it like any other answer, with no cache present.
   */
  recordCachedAnswer(answer: CachedAnswer): void;
  /** Resolves once every exchange answered so far is in the cassette file. */
  flush(): Promise<void>;
  /** Stops listening, drops open connections and writes the last cassette lines. */
  close(): Promise<void>;
}

/** An answer that never crossed the wire, with the request the client would have sent for it. */
export interface CachedAnswer {
  role: string;
  /** Below the role's base URL, e.g. `/chat/completions`. */
  endpoint: string;
  /** The request body exactly as the client would send it (the key is its hash). */
  body: unknown;
  /** The JSON answer the client would have received. */
  responseBody: string;
  servedFrom: NonNullable<CassetteExchange['served_from']>;
}

const ROUTE = /^(?:\/role\/([A-Za-z0-9_.-]+))?\/v1(\/[^?]*)?(\?.*)?$/;
const ROLE_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * A loopback OpenAI-compatible endpoint in front of the real one, for any client (Chat
 * Completions, Responses, streaming or not): each role's requests go to `/role/<role>/v1/...`
 * (or `/v1/...` for the default role). Recording passes every answer through as it arrives and
 * appends the exchange to the cassette; replaying answers from the cassette by request key, byte
 * for byte (a recorded 429 is a 429 again, so the client's retries run the same).
 */
export async function startModelProxy(options: ModelProxyOptions): Promise<ModelProxy> {
  const mode = options.mode;
  if (!MODEL_PROXY_MODES.includes(mode)) throw new CassetteError(`mode: expected one of ${MODEL_PROXY_MODES.join(', ')}, found ${JSON.stringify(mode)}`);
  if (mode !== 'record' && options.replayFrom === undefined) throw new CassetteError(`replayFrom: mode ${mode} needs the cassette to serve from`);
  const defaultRole = options.role ?? 'agent';
  if (!ROLE_NAME.test(defaultRole)) throw new CassetteError(`role: expected letters, digits, "_", "." or "-", found ${JSON.stringify(defaultRole)}`);
  checkUpstreams(options.upstream, 'upstream');
  for (const [role, upstream] of Object.entries(options.upstreams ?? {})) checkUpstreams(upstream, `upstreams.${role}`);
  if (options.listensOnLoopback === false && options.socketPath === undefined) throw new CassetteError('listensOnLoopback: false needs a socketPath, or the gateway cannot be reached');
  const upstreamOf = (role: string): Upstreams | undefined => options.upstreams?.[role] ?? options.upstream;
  const ledger = new BudgetLedger(options.budget ?? {}, Date.now());
  let budgetStop: BudgetStop | undefined;
  const repeatIndex = options.run?.repeatIndex ?? 0;

  const header: CassetteHeader = {
    type: 'header',
    format: CASSETTE_FORMAT,
    version: CASSETTE_FORMAT_VERSION,
    created_at: new Date().toISOString(),
    harness_version: HARNESS_VERSION,
    task_id: options.run?.taskId ?? null,
    scenario_id: options.run?.scenarioId ?? null,
    repeat_index: repeatIndex,
    replay_of: options.replayFrom === undefined ? null : { cassette: options.replayFrom.file, forked_at: null },
  };
  const writer = options.cassette === undefined ? undefined : CassetteWriter.open(options.cassette, header);
  const recorded = new Map<string, CassetteExchange>();
  for (const exchange of options.replayFrom?.exchanges ?? []) recorded.set(`${exchange.role}\n${exchange.key}`, exchange);
  const served = new Set<CassetteExchange>();
  const counter = new OccurrenceCounter();
  let divergence: Divergence | undefined;
  let forkedAt: { role: string; step: number } | undefined;
  let exchangeCount = 0;
  let lastEndpointFailure: string | undefined;
  const answered = (status: number, upstreamError: string | undefined): void => {
    exchangeCount += 1;
    lastEndpointFailure = endpointFailureOf(status, upstreamError);
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const startedAt = Date.now();
    const match = ROUTE.exec(request.url ?? '');
    const method = request.method ?? 'GET';
    if (match === null) {
      const message = `agentbench gateway: no route ${method} ${request.url}: expected /v1/... or /role/<role>/v1/... (chat/completions, responses, messages, models)`;
      sendGatewayError(response, { provider: providerOf(request.url ?? '', request.headers), status: 404, code: 'not_found', message, isFinal: true });
      return;
    }
    const role = match[1] ?? defaultRole;
    const endpoint = match[2] ?? '/';
    const query = match[3] ?? '';
    const provider = providerOf(endpoint, request.headers);
    // Only model requests are budgeted and counted; a model list or a token count is not.
    const isModelRequest = wireApiOf(method, endpoint) !== undefined;
    const rawBody = await readBody(request);
    // Read first: answering before the body is read would cut the client off mid-send.
    if (options.allowsOnlyModelApis === true && !isModelApiRequest(method, endpoint)) {
      const message = `agentbench gateway: ${method} /v1${endpoint} is not a model API request; this gateway forwards only chat/completions, responses, messages (and messages/count_tokens) and the model list`;
      sendGatewayError(response, { provider, status: 404, code: 'not_found', message, isFinal: true });
      return;
    }
    const step = counter.nextStep(role);
    // Parsing, normalising and hashing a long request costs milliseconds: a recording does it
    // after the answer has gone back; only a replay needs the key before it can answer.
    let identity: { body: unknown; hash: string; occurrence: number; key: string } | undefined;
    const identify = (): { body: unknown; hash: string; occurrence: number; key: string } => {
      if (identity !== undefined) return identity;
      const body = parseBody(rawBody);
      const hash = requestHash(`${method} ${endpoint}`, body);
      const occurrence = counter.nextOccurrence(role, hash);
      identity = { body, hash, occurrence, key: exchangeKey({ requestHash: hash, occurrence, repeatIndex }) };
      return identity;
    };

    const exchangeOf = (answer: UpstreamAnswer, source: CassetteExchange['source'], usage = usageOfResponse(answer.body, answer.isStream)): CassetteExchange => {
      const { body, hash, occurrence, key } = identify();
      return {
        type: 'exchange',
        role,
        step,
        endpoint,
        method,
        model: typeof (body as { model?: unknown } | null)?.model === 'string' ? (body as { model: string }).model : null,
        request_hash: hash,
        occurrence,
        repeat_index: repeatIndex,
        key,
        request: { headers: recordedRequestHeaders(request.headers), body },
        response: { status: answer.status, headers: answer.headers, body: answer.body, is_stream: answer.isStream },
        usage,
        latency_ms: Date.now() - startedAt,
        source,
        upstream_error: answer.upstreamError ?? null,
      };
    };

    // Budgets are checked before the cassette too, so a replay with the same budgets stops where the recording did.
    const spent = isModelRequest ? ledger.exceeded(Date.now()) : undefined;
    if (spent !== undefined) {
      budgetStop ??= spent;
      const sent = sendGatewayError(response, { provider, status: 400, code: 'budget_exceeded', message: spent.message, isFinal: true });
      // The gateway's own refusal says nothing of the endpoint: an agent that spent its requests
      // retrying a dead upstream keeps that upstream's failure as the attempt's evidence.
      exchangeCount += 1;
      writer?.append({ ...exchangeOf({ ...sent, isStream: false }, 'live', null), budget_stop: { budget: spent.budget, stop_reason: spent.stopReason, limit: spent.limit, used: spent.used } });
      return;
    }

    if (mode !== 'record' && forkedAt === undefined) {
      const { body, key } = identify();
      const found = recorded.get(`${role}\n${key}`);
      if (found !== undefined) {
        served.add(found);
        response.writeHead(found.response.status, found.response.headers).end(found.response.body);
        answered(found.response.status, found.upstream_error ?? undefined);
        if (found.budget_stop !== undefined) budgetStop ??= budgetStopOf(found.budget_stop, found.response.body);
        else if (isModelRequest) {
          ledger.countRequest();
          ledger.countAnswer(found.usage);
        }
        const replayed = exchangeOf({ status: found.response.status, headers: found.response.headers, body: found.response.body, isStream: found.response.is_stream }, 'cassette', found.usage ?? null);
        writer?.append(found.budget_stop === undefined ? replayed : { ...replayed, budget_stop: found.budget_stop });
        return;
      }
      if (divergence === undefined) {
        divergence = describeDivergence({ role, step, endpoint, body, recorded: options.replayFrom?.exchanges ?? [] });
        options.onDivergence?.(divergence);
      }
      if (mode === 'replay') {
        // Not retryable: the same request would miss again.
        const message = `cassette replay: no recorded answer for ${role} step ${step} (${endpoint}); the request differs from the recording`;
        sendGatewayError(response, { provider, status: 400, code: 'cassette_divergence', message, isFinal: true });
        return;
      }
      forkedAt = { role, step };
    }

    const upstream = endpointFor(upstreamOf(role), provider);
    if (upstream === undefined) {
      const message = `agentbench gateway: no ${provider === 'anthropic' ? 'Anthropic' : 'OpenAI'} upstream for role ${role} (set ${provider === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL'} or the models file's endpoint)`;
      lastEndpointFailure = message;
      sendGatewayError(response, { provider, status: 502, code: 'no_upstream', message, isFinal: true });
      return;
    }
    const target = targetUrl(provider, upstream.baseUrl, endpoint, query);
    const credentials = upstream.apiKey === undefined ? undefined : credentialHeaders(provider, upstream.apiKey);
    if (isModelRequest) ledger.countRequest();
    const answer = await forwardToUpstream({ target, method, headers: request.headers, body: rawBody, response, provider, ...(credentials === undefined ? {} : { credentials }) });
    answered(answer.status, answer.upstreamError);
    const usage = usageOfResponse(answer.body, answer.isStream);
    if (isModelRequest) ledger.countAnswer(usage);
    writer?.append(exchangeOf(answer, 'live', usage));
  }

  const recordCachedAnswer = (answer: CachedAnswer): void => {
    if (!ROLE_NAME.test(answer.role)) throw new CassetteError(`role: expected letters, digits, "_", "." or "-", found ${JSON.stringify(answer.role)}`);
    if (!CASSETTE_SERVED_FROM.includes(answer.servedFrom)) throw new CassetteError(`servedFrom: expected one of ${CASSETTE_SERVED_FROM.join(', ')}, found ${JSON.stringify(answer.servedFrom)}`);
    const method = 'POST';
    const hash = requestHash(`${method} ${answer.endpoint}`, answer.body);
    const { step, occurrence } = counter.next(answer.role, hash);
    const model = (answer.body as { model?: unknown } | null)?.model;
    exchangeCount += 1;
    writer?.append({
      type: 'exchange',
      role: answer.role,
      step,
      endpoint: answer.endpoint,
      method,
      model: typeof model === 'string' ? model : null,
      request_hash: hash,
      occurrence,
      repeat_index: repeatIndex,
      key: exchangeKey({ requestHash: hash, occurrence, repeatIndex }),
      request: { headers: { 'content-type': 'application/json' }, body: answer.body },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: answer.responseBody, is_stream: false },
      usage: usageOfResponse(answer.responseBody, false),
      latency_ms: 0,
      source: 'live',
      upstream_error: null,
      served_from: answer.servedFrom,
    });
  };

  const listeners = await listenGateway(
    (request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) {
          const message = `the model proxy failed: ${error instanceof Error ? error.message : String(error)}`;
          sendGatewayError(response, { provider: providerOf(request.url ?? '', request.headers), status: 500, code: 'proxy_error', message, isFinal: false });
        } else response.destroy();
      });
    },
    { host: options.host ?? '127.0.0.1', port: options.port ?? 0, listensOnLoopback: options.listensOnLoopback ?? true, socketPath: options.socketPath },
  );
  // Through the socket the host name is the forwarder's business; the paths are what count.
  const origin = listeners.origin ?? 'http://localhost';

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await listeners.close();
      if (writer !== undefined) {
        await writer.flush();
        if (forkedAt !== undefined) await rewriteHeader(writer.file, { ...header, replay_of: { cassette: options.replayFrom?.file ?? '', forked_at: forkedAt } });
      }
    })();
    return closing;
  };

  return {
    url: `${origin}/v1`,
    port: listeners.port ?? 0,
    socketPath: listeners.socketPath,
    baseUrlFor: (role: string) => {
      if (!ROLE_NAME.test(role)) throw new CassetteError(`role: expected letters, digits, "_", "." or "-", found ${JSON.stringify(role)}`);
      return `${origin}/role/${role}/v1`;
    },
    get divergence() {
      return divergence;
    },
    get forkedAt() {
      return forkedAt;
    },
    get exchangeCount() {
      return exchangeCount;
    },
    get lastEndpointFailure() {
      return lastEndpointFailure;
    },
    get budgetStop() {
      return budgetStop;
    },
    get usage() {
      return ledger.usage;
    },
    unservedExchanges: () => (options.replayFrom?.exchanges ?? []).filter((exchange) => !served.has(exchange)),
    recordCachedAnswer,
    flush: async () => {
      await writer?.flush();
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Statuses that are the endpoint's failure, not the request's: overloaded, rate limited, timed out. */
function isEndpointStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

function endpointFailureOf(status: number, upstreamError: string | undefined): string | undefined {
  if (upstreamError !== undefined) return `the endpoint failed: ${upstreamError}`;
  return isEndpointStatus(status) ? `the endpoint answered HTTP ${status}` : undefined;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return null;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A recorded budget stop, as the proxy reports it when a replay serves it. */
function budgetStopOf(recorded: NonNullable<CassetteExchange['budget_stop']>, body: string): BudgetStop {
  let message: unknown;
  try {
    message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
  } catch {
    message = undefined;
  }
  return {
    budget: recorded.budget,
    stopReason: recorded.stop_reason as BudgetStop['stopReason'],
    limit: recorded.limit,
    used: recorded.used,
    message: typeof message === 'string' ? message : `the ${recorded.budget} budget was spent`,
  };
}

/** A fork is known only once it happens: the header line is rewritten when the proxy closes (a whole-file rename, so a crash leaves the old header). */
async function rewriteHeader(file: string, header: CassetteHeader): Promise<void> {
  const text = await readFile(file, 'utf8');
  const rest = text.slice(text.indexOf('\n') + 1);
  await writeFile(`${file}.tmp`, `${JSON.stringify(header)}\n${rest}`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}
