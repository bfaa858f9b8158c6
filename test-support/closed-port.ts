import { createServer } from 'node:net';

// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/** A loopback port nothing listens on: bound, then released (for "the upstream refuses" cases). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
