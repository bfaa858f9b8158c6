import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../src/docker/docker-sandbox.js';
import { useDockerTestContext } from './helpers/docker-test-context.js';
import { startHostListener, type HostListener } from './helpers/host-listener.js';

const context = await useDockerTestContext('docker-network.docker.test.ts');
const title = context.skipReason === undefined ? 'DockerSandbox network' : `DockerSandbox network (skipped: ${context.skipReason})`;

describe.skipIf(context.skipReason !== undefined)(title, () => {
  let listener: HostListener;
  let setupSandbox: DockerSandbox;

  beforeAll(async () => {
    setupSandbox = await context.createSandbox({ hasNetwork: true }, 'network-setup');
    listener = await startHostListener(context.docker, setupSandbox);
  });

  afterAll(async () => {
    await setupSandbox?.dispose();
    await listener?.close();
  });

  it('reaches a host listener during setup with network, and not after setNetwork(false)', async () => {
    const sandbox = setupSandbox;
    expect(sandbox.hasNetwork).toBe(true);
    const during = await listener.probe(sandbox);
    expect(during.stdout).toBe('reply:hello-from-host\n');
    await sandbox.setNetwork(false);
    expect(sandbox.hasNetwork).toBe(false);
    const after = await listener.probe(sandbox);
    expect(after.exitCode).toBe(3);
    expect(after.stdout).toMatch(/^unreachable:/);
    // Loopback is all that is left.
    const interfaces = await sandbox.exec(['cat', '/proc/net/dev']);
    expect(interfaces.stdout).toContain('lo:');
    expect(interfaces.stdout).not.toContain('eth0');
    // Idempotent.
    await sandbox.setNetwork(false);
  });

  it('starts without network by default and can be connected later', async () => {
    const sandbox = await context.createSandbox({}, 'network-default');
    try {
      expect(sandbox.hasNetwork).toBe(false);
      const before = await listener.probe(sandbox);
      expect(before.stdout).toMatch(/^unreachable:/);
      await sandbox.setNetwork(true);
      const connected = await listener.probe(sandbox);
      expect(connected.stdout).toBe('reply:hello-from-host\n');
    } finally {
      await sandbox.dispose();
    }
  });
});
