import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type Dockerode from 'dockerode';
import type { EngineConfig } from '@agentbench/schemas';
import { SandboxError } from '../contract/sandbox-error.js';

type PemKind = 'ca' | 'cert' | 'key';

/** Reads one TLS file and checks it is the PEM it should be; a bad file is named with what was expected. */
async function readPem(engine: EngineConfig, kind: PemKind, file: string): Promise<string> {
  const field = `engine '${engine.name}' tls.${kind} (${file})`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new SandboxError('invalid_spec', `${field}: cannot read the file (${code})`, { subject: file, cause: error });
  }
  try {
    if (kind === 'key') createPrivateKey(text);
    // A CA file may hold several certificates: the first one must parse.
    else new X509Certificate(text);
  } catch (error) {
    const expected = kind === 'key' ? 'a PEM private key (-----BEGIN PRIVATE KEY-----)' : 'a PEM certificate (-----BEGIN CERTIFICATE-----)';
    throw new SandboxError('invalid_spec', `${field}: not ${expected}: ${(error as Error).message}`, { subject: file, cause: error });
  }
  return text;
}

/** dockerode's options for an engine address: a socket path, host and port (with TLS material), or SSH. */
export async function engineClientOptions(engine: EngineConfig): Promise<Dockerode.DockerOptions> {
  const url = new URL(engine.host);
  if (url.protocol === 'unix:') return { socketPath: decodeURIComponent(url.pathname) };
  if (url.protocol === 'tcp:') {
    const base = { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) };
    if (engine.tls === undefined) return { ...base, protocol: 'http' };
    const [ca, cert, key] = await Promise.all([readPem(engine, 'ca', engine.tls.ca), readPem(engine, 'cert', engine.tls.cert), readPem(engine, 'key', engine.tls.key)]);
    return { ...base, protocol: 'https', ca, cert, key };
  }
  // ssh: docker-modem runs `docker system dial-stdio` on the remote host; keys come from the SSH agent.
  const options: Dockerode.DockerOptions = { protocol: 'ssh', host: url.hostname, port: url.port === '' ? 22 : Number(url.port) };
  if (url.username !== '') options.username = decodeURIComponent(url.username);
  const agent = process.env['SSH_AUTH_SOCK'];
  if (agent !== undefined) options.sshOptions = { agent };
  return options;
}

/** A client for one engine of the engines list (TLS files read and checked now, not at the first request). */
export async function createEngineClient(engine: EngineConfig): Promise<Dockerode> {
  const options = await engineClientOptions(engine);
  const DockerodeClient = createRequire(import.meta.url)('dockerode') as typeof Dockerode;
  return new DockerodeClient(options);
}
