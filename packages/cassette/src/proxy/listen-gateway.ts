import { lstat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CassetteError } from '../errors/cassette-error.js';

export interface GatewayListeners {
  /** `http://127.0.0.1:PORT`, or undefined when the gateway listens on its socket only. */
  origin: string | undefined;
  port: number | undefined;
  socketPath: string | undefined;
  close(): Promise<void>;
}

function listen(server: Server, target: { port: number; host: string } | { path: string }, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(new CassetteError(`cannot listen on ${what}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(target, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Listens with one handler on TCP loopback, on a unix socket, or both: the socket is how a
 * sandbox without network reaches the gateway (it is mounted in; a forwarder inside listens on
 * the sandbox's loopback). A path where something already exists is refused, never replaced:
 * the gateway removes only the socket it made, at close.
 */
export async function listenGateway(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  options: { host: string; port: number; listensOnLoopback: boolean; socketPath: string | undefined },
): Promise<GatewayListeners> {
  const servers: Server[] = [];
  const make = (): Server => {
    const server = createServer(handler);
    // Clients keep connections alive; close() must not wait for them.
    server.keepAliveTimeout = 5_000;
    servers.push(server);
    return server;
  };
  const closeAll = (): Promise<void> =>
    Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            if (!server.listening) return resolve();
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    ).then(() => undefined);
  try {
    let origin: string | undefined;
    let port: number | undefined;
    if (options.listensOnLoopback) {
      const server = make();
      await listen(server, { port: options.port, host: options.host }, `${options.host}:${options.port}`);
      const address = server.address() as AddressInfo;
      origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
      port = address.port;
    }
    if (options.socketPath !== undefined) {
      const existing = await lstat(options.socketPath).catch(() => undefined);
      if (existing !== undefined) throw new CassetteError(`socketPath: ${options.socketPath} already exists; the gateway makes its own socket there and replaces nothing`);
      // Node removes the socket file when this server closes.
      await listen(make(), { path: options.socketPath }, options.socketPath);
    }
    return { origin, port, socketPath: options.socketPath, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
