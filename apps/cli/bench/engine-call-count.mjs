// Counts the Engine API requests a process makes (issue 26 item 3: CPU outside the sandboxes): a unix
// socket that forwards every byte to the engine's and reads the request lines off the client's side.
// Point the process at it with DOCKER_HOST=unix://<socketPath>. Figures only: the engine's replies are
// passed on untouched and never parsed; a request line inside a body (an archive, stdin of an attached
// stream) would be counted too, which the bench's scripted attempts do not send.
import { rmSync } from 'node:fs';
import net from 'node:net';

const REQUEST_LINE = /(GET|POST|PUT|DELETE|HEAD) (\/\S*) HTTP\/1\.[01]\r\n/g;
// A request line split across two reads is found in the next one: keep this much of the previous read.
const CARRY = 512;

/** `POST /v1.47/containers/3f…/start?x=1` -> `POST /containers/:id/start` (ids and names folded, version and query dropped). */
export function requestKind(method, target) {
  const route = target
    .replace(/\?.*$/, '')
    .replace(/^\/v\d+\.\d+/, '')
    .replace(/[0-9a-f]{64}/g, ':id')
    .replace(/\/(containers|images|exec|networks)\/(?!json$|create$|prune$|load$)[^/]+/, '/$1/:id');
  return `${method} ${route}`;
}

/** Starts the counting socket; `stop()` closes it and returns the count per request kind. */
export async function startEngineCallCount({ socketPath, enginePath = '/var/run/docker.sock' }) {
  rmSync(socketPath, { force: true });
  const counts = new Map();
  const connections = new Set();
  const server = net.createServer((client) => {
    const engine = net.connect(enginePath);
    connections.add(client).add(engine);
    let carry = '';
    client.on('data', (chunk) => {
      const text = carry + chunk.toString('latin1');
      for (const match of text.matchAll(REQUEST_LINE)) {
        if (match.index + match[0].length <= carry.length) continue; // counted with the previous read
        const kind = requestKind(match[1], match[2]);
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
      }
      carry = text.slice(-CARRY);
    });
    client.pipe(engine).pipe(client);
    const close = () => {
      client.destroy();
      engine.destroy();
    };
    client.once('error', close).once('close', close);
    engine.once('error', close).once('close', close);
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
  return {
    async stop() {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      rmSync(socketPath, { force: true });
      return new Map([...counts].sort((a, b) => b[1] - a[1]));
    },
  };
}
