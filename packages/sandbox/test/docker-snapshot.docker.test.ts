import { rmSync, writeFileSync } from 'node:fs';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSnapshot } from '../src/contract/sandbox.js';
import { DockerSandbox } from '../src/docker/docker-sandbox.js';
import { NETWORKLESS_HOSTS, networklessHostsFile } from '../src/docker/networkless-hosts-file.js';
import { RUNNER_IMAGE, useDockerTestContext } from './helpers/docker-test-context.js';
import { startHostListener, type HostListener } from './helpers/host-listener.js';

const context = await useDockerTestContext('docker-snapshot.docker.test.ts');
const title = context.skipReason === undefined ? 'DockerSandbox snapshots' : `DockerSandbox snapshots (skipped: ${context.skipReason})`;

/** Serves one loopback connection inside the sandbox and connects to it by the name `localhost`. */
const LOOPBACK_BY_NAME = `
import socket
server = socket.socket()
server.bind(('127.0.0.1', 0))
server.listen(1)
client = socket.create_connection(('localhost', server.getsockname()[1]), timeout=3)
connection, _ = server.accept()
connection.sendall(b'over-loopback')
print(client.recv(64).decode())
`;

describe.skipIf(context.skipReason !== undefined)(title, () => {
  let listener: HostListener;
  let snapshot: SandboxSnapshot;

  beforeAll(async () => {
    // Setup's sandbox: on the bridge, so the listener's address is known; it writes outside the workspace.
    const setup = await context.createSandbox({ hasNetwork: true }, 'setup');
    try {
      listener = await startHostListener(context.docker, setup);
      expect(await listener.probe(setup)).toMatchObject({ exitCode: 0, stdout: 'reply:hello-from-host\n' });
      await setup.exec(['sh', '-c', 'echo from-setup > /var/tmp/setup-state']);
      await setup.setNetwork(false);
      snapshot = (await setup.snapshot())!;
    } finally {
      await setup.dispose();
    }
  });

  afterAll(async () => {
    await snapshot?.dispose();
    await listener?.close();
  });

  it('starts a sandbox from the image for which the engine makes no network: loopback and localhost as under none, nothing beyond, no way back', async () => {
    const sandbox = (await snapshot.createSandbox({ labels: { runId: context.runId, taskId: 'from-snapshot' } })) as DockerSandbox;
    try {
      expect((await sandbox.exec(['cat', '/var/tmp/setup-state'])).stdout).toBe('from-setup\n');
      // The engine made no network sandbox: no endpoint, no namespace of its own to record (without the change: the `none` network).
      const inspected = await context.docker.getContainer(sandbox.containerId).inspect();
      expect((inspected.Config as { NetworkDisabled?: boolean }).NetworkDisabled).toBe(true);
      expect(inspected.NetworkSettings.Networks).toEqual({});
      expect(inspected.NetworkSettings.SandboxKey).toBe('');

      expect(await listener.probe(sandbox)).toMatchObject({ exitCode: 3, stdout: expect.stringMatching(/^unreachable:/) });
      const interfaces = await sandbox.exec(['sh', '-c', 'cat /proc/net/dev; cat /proc/net/if_inet6']);
      expect(interfaces.stdout).toContain('lo:');
      expect(interfaces.stdout).not.toContain('eth0');
      // IPv6 off, as the engine leaves it under none: no ::1.
      expect(interfaces.stdout).not.toContain('00000000000000000000000000000001');
      expect(await sandbox.exec(['python3', '-c', LOOPBACK_BY_NAME])).toMatchObject({ exitCode: 0, stdout: 'over-loopback\n' });

      // /etc/hosts is the host's file, read-only: no sandbox changes what another reads.
      expect((await sandbox.exec(['cat', '/etc/hosts'])).stdout).toBe(NETWORKLESS_HOSTS);
      const write = await sandbox.exec(['sh', '-c', 'echo 10.0.0.1 localhost > /etc/hosts']);
      expect(write.exitCode).not.toBe(0);
      expect(write.stderr).toMatch(/Read-only file system/);

      await expect(sandbox.setNetwork(true)).rejects.toThrow(/started from a snapshot without network, and the engine made no network for it/);
      await sandbox.setNetwork(false);
      expect((await sandbox.exec(['echo', 'usable'])).stdout).toBe('usable\n');
    } finally {
      await sandbox.dispose();
    }
  });

  it('starts it on none, as any networkless sandbox, when the engine cannot mount the hosts file (and asks that engine no more)', async () => {
    // An engine that does not see this host's temporary folder, as one beside a containerized `ab` would not: the file is gone.
    const engine = new Dockerode();
    const notes: string[] = [];
    const setup = await DockerSandbox.create({ image: RUNNER_IMAGE, labels: { runId: context.runId, taskId: 'setup-unseen' } }, { docker: engine, onDebug: (note) => notes.push(note) });
    const unseenSnapshot = (await setup.snapshot())!;
    await setup.dispose();
    const hostsFile = networklessHostsFile();
    rmSync(hostsFile);
    try {
      for (const taskId of ['unseen-first', 'unseen-second']) {
        const sandbox = (await unseenSnapshot.createSandbox({ labels: { runId: context.runId, taskId } })) as DockerSandbox;
        try {
          const inspected = await context.docker.getContainer(sandbox.containerId).inspect();
          expect((inspected.Config as { NetworkDisabled?: boolean }).NetworkDisabled).toBeUndefined();
          expect(Object.keys(inspected.NetworkSettings.Networks)).toEqual(['none']);
          expect(await sandbox.exec(['python3', '-c', LOOPBACK_BY_NAME])).toMatchObject({ exitCode: 0, stdout: 'over-loopback\n' });
        } finally {
          await sandbox.dispose();
        }
      }
      // One failed create, then none: the second went to none at once.
      expect(notes.filter((note) => note.includes(`cannot mount ${hostsFile}`))).toHaveLength(1);
    } finally {
      writeFileSync(hostsFile, NETWORKLESS_HOSTS);
      await unseenSnapshot.dispose();
    }
  });

  it('gives a sandbox started from it with hasNetwork the bridge, as any other', async () => {
    const sandbox = (await snapshot.createSandbox({ hasNetwork: true, labels: { runId: context.runId, taskId: 'from-snapshot-networked' } })) as DockerSandbox;
    try {
      expect(await listener.probe(sandbox)).toMatchObject({ exitCode: 0, stdout: 'reply:hello-from-host\n' });
      await sandbox.setNetwork(false);
      expect(await listener.probe(sandbox)).toMatchObject({ exitCode: 3 });
    } finally {
      await sandbox.dispose();
    }
  });
});
