import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Sandbox } from '../contract/sandbox.js';

/**
 * Tries each of this host's IPv4 addresses from inside a sandbox; prints `reply:<address>` for the first that answers
 * `hello-from-host`, else `unreachable`. Loopback is tried too: where the sandbox shares the host's network (local),
 * that is the host's own.
 */
const PROBE_SCRIPT = `
import socket, sys
port = int(sys.argv[1])
for address in sys.argv[2:]:
    try:
        connection = socket.create_connection((address, port), timeout=2)
        if connection.recv(64) == b'hello-from-host':
            print('reply:' + address)
            sys.exit(0)
    except OSError:
        pass
print('unreachable')
`;

/**
 * Keeps talking with the host until the connection breaks: prints `connected`, then sends a ping and waits for its
 * pong every 100 ms. Prints `cut:<error>` when the connection fails or stalls for 2 s, `survived` after `seconds`.
 */
const CONVERSATION_SCRIPT = `
import socket, sys, time
port, seconds = int(sys.argv[1]), float(sys.argv[2])
for address in sys.argv[3:]:
    try:
        connection = socket.create_connection((address, port), timeout=2)
        if connection.recv(64) == b'hello-from-host':
            break
    except OSError:
        pass
else:
    print('unreachable')
    sys.exit(3)
print('connected', flush=True)
deadline = time.time() + seconds
try:
    while time.time() < deadline:
        connection.sendall(b'p')
        if connection.recv(1) != b'o':
            raise OSError('closed')
        time.sleep(0.1)
except OSError as error:
    print('cut:' + (type(error).__name__ if str(error) == '' else str(error)), flush=True)
    sys.exit(0)
print('survived', flush=True)
`;

export interface HostListener {
  /** Runs the reachability probe in `sandbox`: `reply:<address>` or `unreachable`. */
  probe(sandbox: Sandbox): Promise<string>;
  /** Runs the conversation for up to `seconds` in `sandbox`; `onConnected` fires once it talks. */
  converse(sandbox: Sandbox, seconds: number, onConnected: () => void): Promise<{ exitCode: number; stdout: string; stderr: string; killedBy?: string }>;
  close(): Promise<void>;
}

/** A TCP listener on every address of this host, answering `hello-from-host` and then a pong per ping. */
export async function startHostListener(): Promise<HostListener> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write('hello-from-host');
    socket.on('data', (data) => socket.write('o'.repeat(data.length)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '0.0.0.0', resolve);
  });
  const port = String((server.address() as AddressInfo).port);
  const addresses = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => entry.family === 'IPv4')
    .sort((left, right) => Number(left.internal) - Number(right.internal))
    .map((entry) => entry.address);
  return {
    async probe(sandbox) {
      const result = await sandbox.exec(['python3', '-c', PROBE_SCRIPT, port, ...addresses], { timeoutSec: 60 });
      if (result.exitCode !== 0) throw new Error(`the network probe did not run (exit ${result.exitCode}; the suite needs python3 in the sandbox): ${result.stderr}`);
      return result.stdout.trim();
    },
    converse(sandbox, seconds, onConnected) {
      return sandbox.exec(['python3', '-c', CONVERSATION_SCRIPT, port, String(seconds), ...addresses], {
        timeoutSec: seconds + 30,
        onStdout: (chunk) => {
          if (chunk.includes('connected')) onConnected();
        },
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
