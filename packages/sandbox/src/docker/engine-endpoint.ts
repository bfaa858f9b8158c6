import type Dockerode from 'dockerode';

/** Where a container lives, enough to remove it from a fresh process. */
export interface EngineEndpoint {
  socketPath?: string;
  host?: string;
  port?: number;
}

/** Where the client's engine listens, for the exit hook's removal from a fresh process. */
export async function engineEndpoint(docker: Dockerode): Promise<EngineEndpoint> {
  const modem = docker.modem as unknown as {
    socketPath?: unknown;
    getSocketPath?: () => Promise<string | undefined> | undefined;
    host?: unknown;
    port?: unknown;
    protocol?: unknown;
  };
  // docker-modem may hold the socket path as a function that finds the default one.
  if (typeof modem.socketPath === 'string') return { socketPath: modem.socketPath };
  if (typeof modem.socketPath === 'function' && typeof modem.getSocketPath === 'function') {
    const socketPath = await modem.getSocketPath();
    return typeof socketPath === 'string' ? { socketPath } : {};
  }
  // The exit hook speaks plain HTTP only; a TLS or SSH engine is left to `ab cleanup`.
  if (typeof modem.host === 'string' && (modem.protocol === undefined || modem.protocol === 'http')) {
    return { host: modem.host, port: Number(modem.port ?? 2375) };
  }
  return {};
}
