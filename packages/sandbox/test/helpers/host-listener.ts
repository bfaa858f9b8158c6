import { createServer, type Server } from 'node:net';
import type Dockerode from 'dockerode';
import type { DockerSandbox } from '../../src/docker/docker-sandbox.js';

/** Connects to host:port from inside a sandbox with a bounded timeout; prints the outcome, exits 3 when unreachable. */
export const PROBE_SCRIPT = `
import socket, sys
try:
    connection = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3)
    print('reply:' + connection.recv(64).decode())
except OSError as error:
    print('unreachable:' + type(error).__name__)
    sys.exit(3)
`;

export interface HostListener {
  /** The host's address on the bridge, as a connected container sees it. */
  gateway: string;
  port: number;
  /** Runs the probe in `sandbox`: `reply:hello-from-host\n` or `unreachable:<error>\n`. */
  probe(sandbox: DockerSandbox): Promise<{ exitCode: number; stdout: string }>;
  close(): Promise<void>;
}

/**
 * A TCP listener on the host's bridge address that answers `hello-from-host`. The address
 * is read from `connected`, a sandbox on the bridge (the default bridge's IPAM often lists
 * no gateway, and its host interface is down until a container joins).
 */
export async function startHostListener(docker: Dockerode, connected: DockerSandbox): Promise<HostListener> {
  const inspected = await docker.getContainer(connected.containerId).inspect();
  const gateway = inspected.NetworkSettings.Networks['bridge']?.Gateway;
  if (gateway === undefined || gateway === '') throw new Error('the sandbox on the bridge network has no gateway address');
  const server: Server = createServer((socket) => socket.end('hello-from-host'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, gateway, resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    gateway,
    port,
    probe: (sandbox) => sandbox.exec(['python3', '-c', PROBE_SCRIPT, gateway, String(port)]),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
