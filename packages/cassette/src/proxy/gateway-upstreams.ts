import { CassetteError } from '../errors/cassette-error.js';
import type { ApiProvider } from './wire-api.js';

/** One provider's endpoint, and the key the gateway adds to every request sent there. */
export interface UpstreamEndpoint {
  /**
   * As the provider's SDKs take it: OpenAI's with `/v1` (`OPENAI_BASE_URL`, e.g.
   * `https://api.openai.com/v1`), Anthropic's without (`ANTHROPIC_BASE_URL`, e.g. `https://api.anthropic.com`).
   */
  baseUrl: string;
  /** Added by the gateway (`Authorization: Bearer` for OpenAI, `x-api-key` for Anthropic), replacing whatever the client sent. Without it the client's own credentials pass through. */
  apiKey?: string;
}

/** The upstream of each provider. A plain string is an OpenAI-compatible base URL with the client's credentials passed through (as before the gateway). */
export type Upstreams = string | { openai?: UpstreamEndpoint; anthropic?: UpstreamEndpoint };

/**
 * The upstreams as the provider SDKs read them from the environment: `OPENAI_BASE_URL` and
 * `OPENAI_API_KEY`, `ANTHROPIC_BASE_URL` and `ANTHROPIC_API_KEY` (either base URL defaults to the
 * provider's public one when its key is set). The keys stay on the host: the gateway adds them.
 */
export function upstreamsFromEnvironment(environment: Readonly<Record<string, string | undefined>>): Exclude<Upstreams, string> {
  const upstreams: Exclude<Upstreams, string> = {};
  const endpoint = (baseUrl: string | undefined, apiKey: string | undefined, publicUrl: string): UpstreamEndpoint | undefined => {
    if (baseUrl === undefined && apiKey === undefined) return undefined;
    return { baseUrl: baseUrl ?? publicUrl, ...(apiKey === undefined ? {} : { apiKey }) };
  };
  const openai = endpoint(environment['OPENAI_BASE_URL'] || undefined, environment['OPENAI_API_KEY'] || undefined, 'https://api.openai.com/v1');
  const anthropic = endpoint(environment['ANTHROPIC_BASE_URL'] || undefined, environment['ANTHROPIC_API_KEY'] || undefined, 'https://api.anthropic.com');
  if (openai !== undefined) upstreams.openai = openai;
  if (anthropic !== undefined) upstreams.anthropic = anthropic;
  return upstreams;
}

/** Fails with a CassetteError naming the field when a base URL is not an http(s) URL. */
export function checkUpstreams(upstreams: Upstreams | undefined, field: string): void {
  if (upstreams === undefined) return;
  const entries: [string, unknown][] = typeof upstreams === 'string' ? [[field, upstreams]] : Object.entries(upstreams).map(([provider, endpoint]) => [`${field}.${provider}.baseUrl`, (endpoint as UpstreamEndpoint | undefined)?.baseUrl]);
  for (const [name, value] of entries) {
    let url: URL | undefined;
    try {
      url = typeof value === 'string' ? new URL(value) : undefined;
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new CassetteError(`${name}: expected an http(s) base URL such as https://api.openai.com/v1, found ${JSON.stringify(value)}`);
    }
  }
}

/** A provider's endpoint in `upstreams`, if it has one. */
export function endpointFor(upstreams: Upstreams | undefined, provider: ApiProvider): UpstreamEndpoint | undefined {
  if (upstreams === undefined) return undefined;
  if (typeof upstreams === 'string') return provider === 'openai' ? { baseUrl: upstreams } : undefined;
  return upstreams[provider];
}

/**
 * The URL a request for `endpoint` (below `/v1`) goes to. OpenAI's base URL already ends in
 * `/v1`; Anthropic's does not (its SDK adds `/v1/messages`), unless the user wrote it with one.
 */
export function targetUrl(provider: ApiProvider, baseUrl: string, endpoint: string, query: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const version = provider === 'anthropic' && !base.endsWith('/v1') ? '/v1' : '';
  return `${base}${version}${endpoint === '/' ? '' : endpoint}${query}`;
}

/** The credential header the gateway sets for a provider, and the client's ones it drops. */
export function credentialHeaders(provider: ApiProvider, apiKey: string): Record<string, string> {
  return provider === 'anthropic' ? { 'x-api-key': apiKey } : { authorization: `Bearer ${apiKey}` };
}

/** Headers that carry a client's credentials: dropped when the gateway adds its own key. */
export const CLIENT_CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'x-api-key', 'api-key', 'openai-organization', 'openai-project']);
