import { lstat, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { uniqueMarker, type ConformanceContext } from './conformance-context.js';

/** Where container engines listen on a host. */
const ENGINE_SOCKETS = ['/var/run/docker.sock', '/run/docker.sock', '/run/containerd/containerd.sock', '/run/podman/podman.sock'];

const CONNECT_UNIX = `
import socket, sys
try:
    socket.socket(socket.AF_UNIX).connect(sys.argv[1])
    print('connected')
except OSError as error:
    print('refused:' + type(error).__name__)
`;

/**
 * `isolation`: a command sees nothing of the host but what it was given. At isolation `none` (local) the host's
 * files and engine are there, as documented; the environment is filtered on every backend.
 */
export function registerHostIsolationChecks(context: ConformanceContext): void {
  const isolated = context.promises.isolation !== 'none';

  context.check('isolation.host-environment', 'isolation', "the host process's environment (API keys) does not reach commands, on every backend", async () => {
    const name = 'AGENTBENCH_CONFORMANCE_SECRET';
    const secret = `do-not-leak-${uniqueMarker()}`;
    process.env[name] = secret;
    try {
      const sandbox = await context.sandbox();
      const result = await sandbox.exec('env');
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(/^PATH=/m);
      expect(result.stdout).not.toContain(secret);
    } finally {
      delete process.env[name];
    }
  });

  context.check(
    'isolation.host-files',
    'isolation',
    isolated ? "a host file outside the workspace is not visible to commands" : 'a host file outside the workspace is readable by commands (documented: no isolation)',
    async () => {
      const folder = await mkdtemp(join(tmpdir(), 'agentbench-conformance-host-'));
      const path = join(folder, 'host-only.txt');
      const content = `host-only-${uniqueMarker()}`;
      try {
        await writeFile(path, content);
        const sandbox = await context.sandbox();
        const result = await sandbox.exec(['cat', path]);
        if (isolated) {
          expect(result.exitCode).not.toBe(0);
          expect(result.stdout).not.toContain(content);
        } else {
          expect(result).toMatchObject({ exitCode: 0, stdout: content });
        }
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  );

  context.check(
    'isolation.engine-socket',
    'isolation',
    isolated ? "the host's container engine socket cannot be reached" : "the host's container engine socket is there for commands (documented: no isolation)",
    async (skip) => {
      const sockets: string[] = [];
      for (const socket of ENGINE_SOCKETS) {
        if ((await lstat(socket).catch(() => undefined))?.isSocket() === true) sockets.push(socket);
      }
      if (sockets.length === 0) return skip(`no engine socket on this host (looked for ${ENGINE_SOCKETS.join(', ')})`);
      const sandbox = await context.sandbox();
      for (const socket of sockets) {
        const result = await sandbox.exec(['python3', '-c', CONNECT_UNIX, socket]);
        expect(result.exitCode, result.stderr).toBe(0);
        if (isolated) expect(result.stdout, socket).toMatch(/^refused:/);
        else expect(result.stdout, socket).toBe('connected\n');
      }
    },
  );
}
