// The cassette: one file per attempt or scenario run of every model exchange, and the loopback proxy that writes and serves it.
// Request normalization, the writer, the occurrence counter and the divergence's parts are internal;
// CassetteFileError and UpstreamUnreachableError are CassetteErrors (tell them by `name`).
export { CassetteError } from './errors/cassette-error.js';
export { parseCassette, readCassette, type Cassette } from './read-cassette.js';
export { checkCassetteRun } from './check-cassette-run.js';
export { formatDivergence, type Divergence } from './divergence.js';
export { startModelProxy, type ModelProxy, type ModelProxyMode, type ModelProxyOptions } from './proxy/start-model-proxy.js';
export { startAttemptGateway, type AttemptGateway, type AttemptGatewayOptions, type AttemptGatewayOutcome } from './proxy/attempt-gateway.js';
export { checkUpstream } from './proxy/check-upstream.js';
export { upstreamsFromEnvironment, type UpstreamEndpoint, type Upstreams } from './proxy/gateway-upstreams.js';
export type { GatewayBudget, GatewayUsage } from './proxy/budget-ledger.js';
/** The file name an attempt's or scenario run's cassette has in its folder. */
export const CASSETTE_FILE_NAME = 'cassette.jsonl';
