import path from 'node:path';
import { ConfigurationError } from '../errors/configuration-error.js';
import { closestName } from '../shared/closest-name.js';
import { isRecord } from '@agentbench/helpers';

/** TLS material of a `tcp://` engine: paths of PEM files (relative ones resolve against the engines file's folder). */
export interface EngineTlsConfig {
  ca: string;
  cert: string;
  key: string;
}

/** One Docker engine a run may place attempts on. */
export interface EngineConfig {
  /** Short identifier, written in each attempt record placed on it. */
  name: string;
  /** `unix:///var/run/docker.sock`, `tcp://host:port` or `ssh://user@host[:port]`. */
  host: string;
  tls?: EngineTlsConfig;
  /** Attempts running on it at once (at least 1). */
  capacity: number;
}

/** The engines list as read from a file, with where it came from (for messages). */
export interface EnginesConfig {
  engines: EngineConfig[];
  /** The file the list was read from. */
  file: string;
}

export const ENGINE_NAME_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,62}$/;
const ENGINE_KEYS = ['name', 'host', 'tls', 'capacity'] as const;
const TLS_KEYS = ['ca', 'cert', 'key'] as const;
const HOST_EXAMPLES = 'unix:///var/run/docker.sock, tcp://10.0.0.5:2376 or ssh://user@host';

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

function refuseUnknownKeys(value: Record<string, unknown>, known: readonly string[], field: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = closestName(key, known);
    const hint = near === undefined ? `expected only ${known.join(', ')}` : `did you mean '${near}'?`;
    throw new ConfigurationError(field, `unknown key '${key}', ${hint}`);
  }
}

/** Checks an engine address; returns it unchanged. */
export function checkEngineHost(host: unknown, field: string): string {
  if (typeof host !== 'string' || host.trim() === '') throw new ConfigurationError(field, `expected an engine address (${HOST_EXAMPLES}), found ${show(host)}`);
  const match = /^([a-z]+):\/\/(.*)$/.exec(host);
  const scheme = match?.[1];
  const rest = match?.[2] ?? '';
  if (scheme === 'unix' && rest.startsWith('/') && rest.length > 1) return host;
  if (scheme === 'tcp' && /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(rest)) {
    const port = Number(rest.slice(rest.lastIndexOf(':') + 1));
    if (port >= 1 && port <= 65535) return host;
  }
  if (scheme === 'ssh' && /^([^@/\s]+@)?[A-Za-z0-9.-]+(:\d{1,5})?$/.test(rest)) return host;
  throw new ConfigurationError(field, `expected unix:///absolute/path, tcp://host:port or ssh://user@host[:port] (e.g. ${HOST_EXAMPLES}), found ${show(host)}`);
}

function parseTls(value: unknown, field: string, baseDir: string): EngineTlsConfig {
  if (!isRecord(value)) throw new ConfigurationError(field, `expected an object { "ca": PATH, "cert": PATH, "key": PATH }, found ${show(value)}`);
  refuseUnknownKeys(value, TLS_KEYS, field);
  const paths = TLS_KEYS.map((key) => {
    const file = value[key];
    if (typeof file !== 'string' || file.trim() === '') throw new ConfigurationError(`${field}.${key}`, `expected the path of a PEM file, found ${show(file)}`);
    return path.resolve(baseDir, file);
  });
  return { ca: paths[0] as string, cert: paths[1] as string, key: paths[2] as string };
}

function parseEngine(value: unknown, field: string, baseDir: string): EngineConfig {
  if (!isRecord(value)) throw new ConfigurationError(field, `expected an engine { "name", "host", "capacity", optional "tls" }, found ${show(value)}`);
  refuseUnknownKeys(value, ENGINE_KEYS, field);
  const name = value['name'];
  if (typeof name !== 'string' || !ENGINE_NAME_PATTERN.test(name)) {
    throw new ConfigurationError(`${field}.name`, `expected a lower-case identifier (a-z, 0-9, '.', '_', '-'; up to 63 characters), found ${show(name)}`);
  }
  const host = checkEngineHost(value['host'], `${field}.host`);
  const capacity = value['capacity'];
  if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 1) {
    throw new ConfigurationError(`${field}.capacity`, `expected a whole number of at least 1 (attempts at once on this engine), found ${show(capacity)}`);
  }
  const engine: EngineConfig = { name, host, capacity };
  if (value['tls'] !== undefined) {
    if (!host.startsWith('tcp://')) throw new ConfigurationError(`${field}.tls`, `TLS applies to tcp:// engines only; ${host} is not one`);
    engine.tls = parseTls(value['tls'], `${field}.tls`, baseDir);
  }
  return engine;
}

/**
 * Validates the `engines` list of a parsed config or engines file (`{ "engines": [...] }`); `file` names
 * the file in messages and relative TLS paths resolve against its folder. Returns undefined when the
 * value has no `engines` key (a config file without engines).
 */
export function parseEnginesConfig(value: unknown, file: string): EnginesConfig | undefined {
  if (!isRecord(value)) throw new ConfigurationError(file, `expected a JSON object such as { "engines": [{ "name": "local", "host": "unix:///var/run/docker.sock", "capacity": 4 }] }`);
  const list = value['engines'];
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.length === 0) throw new ConfigurationError(`${file}: engines`, `expected a non-empty list of engines, found ${show(list)}`);
  const baseDir = path.dirname(path.resolve(file));
  const engines = list.map((entry, index) => parseEngine(entry, `${file}: engines[${index}]`, baseDir));
  const seen = new Set<string>();
  engines.forEach((engine, index) => {
    if (seen.has(engine.name)) throw new ConfigurationError(`${file}: engines[${index}].name`, `engine name '${engine.name}' is used twice; each engine needs its own name`);
    seen.add(engine.name);
  });
  return { engines, file: path.resolve(file) };
}
