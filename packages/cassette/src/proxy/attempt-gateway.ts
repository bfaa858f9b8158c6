import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamUnreachableError } from '../errors/upstream-unreachable-error.js';
import type { CassetteExchange } from '@agentbench/schemas';
import { readCassette, type Cassette } from '../read-cassette.js';
import type { BudgetStop, GatewayBudget, GatewayUsage } from './budget-ledger.js';
import { upstreamsFromEnvironment, type Upstreams } from './gateway-upstreams.js';
import { startLoopbackForwarder, type LoopbackForwarder, type SandboxCommandRunner } from './start-loopback-forwarder.js';
import { startModelProxy, type ModelProxy } from './start-model-proxy.js';

/** Where the gateway's socket folder is mounted inside the sandbox (read-only). */
export const SANDBOX_GATEWAY_FOLDER = '/run/agentbench-gateway';
const SOCKET_NAME = 'gateway.sock';

export interface AttemptGatewayOptions {
  /** The file this attempt's exchanges are written to (`<attempt folder>/cassette.jsonl`). */
  cassette: string;
  /** `record` (default): forward and keep; `replay`: serve `replayFrom` offline, as `ab replay` does. */
  mode?: 'record' | 'replay';
  replayFrom?: Cassette;
  /** Default: `upstreamsFromEnvironment(process.env)` (`OPENAI_BASE_URL`/`OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`/`ANTHROPIC_API_KEY`); a models file's endpoint is passed here. */
  upstream?: Upstreams;
  /** The task's budgets: requests (its `max_steps`), tokens, cost, time. */
  budget?: GatewayBudget;
  run?: { taskId?: string | null; scenarioId?: string | null; repeatIndex?: number };
}

/** What the gateway tells the run driver about the attempt once it is closed. */
export interface AttemptGatewayOutcome {
  usage: GatewayUsage;
  /** The first budget spent: the attempt's stop reason (`budgetStop.stopReason`), also in the cassette's `budget_stop`. */
  budgetStop: BudgetStop | undefined;
  /**
   * Set when the attempt's last model exchange failed at the endpoint (refused or cut connection,
   * timeout, 5xx, 429): an infrastructure failure, not the agent's, which the run driver retries.
   */
  infrastructureFailure: UpstreamUnreachableError | undefined;
  exchangeCount: number;
}

export interface AttemptGateway extends AsyncDisposable {
  /** The host folder holding the socket, and where it goes in the sandbox: pass it as a read-only mount (`SandboxSpec.readOnlyMounts`). */
  readonly mount: { hostPath: string; sandboxPath: string };
  /** The socket on the host. */
  readonly socketPath: string;
  readonly proxy: ModelProxy;
  /** Starts the loopback forwarder in a sandbox created with `mount`; its `environment` is what the agent gets. */
  startForwarder(sandbox: SandboxCommandRunner, options?: { port?: number }): Promise<LoopbackForwarder>;
  /** The exchanges recorded so far, read back from the cassette once written (the runner's model turns for events.jsonl). */
  recordedExchanges(): Promise<CassetteExchange[]>;
  /** The outcome so far (usage, budget stop, infrastructure failure). */
  outcome(): AttemptGatewayOutcome;
  /** Stops the gateway, removes the socket folder and returns the outcome. */
  close(): Promise<AttemptGatewayOutcome>;
}

/**
 * The model gateway of one attempt: the cassette proxy listening only on a unix socket, in a
 * private folder of its own that is bind-mounted read-only into the sandbox; a forwarder inside
 * (`startForwarder`) gives the agent `http://127.0.0.1:PORT`. The sandbox keeps no network, and
 * the keys stay here: the gateway adds them upstream.
 */
export async function startAttemptGateway(options: AttemptGatewayOptions): Promise<AttemptGateway> {
  // A folder of its own in the temp dir, not the attempt folder: a socket path has a 108-byte
  // limit, and the folder mounted into the sandbox must hold nothing but the socket. mkdtemp makes it 0700.
  const folder = await mkdtemp(join(tmpdir(), 'agentbench-gateway-'));
  const socketPath = join(folder, SOCKET_NAME);
  let proxy: ModelProxy;
  try {
    proxy = await startModelProxy({
      mode: options.mode ?? 'record',
      cassette: options.cassette,
      ...(options.replayFrom === undefined ? {} : { replayFrom: options.replayFrom }),
      upstream: options.upstream ?? upstreamsFromEnvironment(process.env),
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      ...(options.run === undefined ? {} : { run: options.run }),
      socketPath,
      listensOnLoopback: false,
      allowsOnlyModelApis: true,
    });
    // The sandbox's user is the folder's owner (the Docker sandbox runs commands as the mounted
    // workspace's owner); the socket is for that owner only, as the folder is.
    await chmod(socketPath, 0o600);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  const upstreamName = describeUpstream(options.upstream ?? upstreamsFromEnvironment(process.env));
  const outcome = (): AttemptGatewayOutcome => {
    const failure = proxy.lastEndpointFailure;
    return {
      usage: { ...proxy.usage },
      budgetStop: proxy.budgetStop,
      infrastructureFailure: failure === undefined ? undefined : new UpstreamUnreachableError(upstreamName, failure),
      exchangeCount: proxy.exchangeCount,
    };
  };
  let closing: Promise<AttemptGatewayOutcome> | undefined;
  const close = (): Promise<AttemptGatewayOutcome> =>
    (closing ??= (async () => {
      try {
        await proxy.close();
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
      return outcome();
    })());
  return {
    mount: { hostPath: folder, sandboxPath: SANDBOX_GATEWAY_FOLDER },
    socketPath,
    proxy,
    startForwarder: (sandbox, forwarderOptions = {}) => startLoopbackForwarder(sandbox, { socketPath: `${SANDBOX_GATEWAY_FOLDER}/${SOCKET_NAME}`, ...forwarderOptions }),
    recordedExchanges: async () => {
      await proxy.flush();
      return (await readCassette(options.cassette)).exchanges;
    },
    outcome,
    close,
    [Symbol.asyncDispose]: async () => {
      await close();
    },
  };
}

function describeUpstream(upstream: Upstreams): string {
  if (typeof upstream === 'string') return upstream;
  const urls = [upstream.openai?.baseUrl, upstream.anthropic?.baseUrl].filter((url): url is string => url !== undefined);
  return urls.length === 0 ? 'the model upstream' : urls.join(' and ');
}
