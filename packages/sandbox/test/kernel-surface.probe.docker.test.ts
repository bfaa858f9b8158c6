import { afterAll, beforeAll, describe, it } from 'vitest';
import type { DockerSandbox } from '../src/docker/docker-sandbox.js';
import { useDockerTestContext } from './helpers/docker-test-context.js';
import { expectProbeRefused, KERNEL_SURFACE_PROBES } from './helpers/kernel-surface-probes.js';

// Real Docker, no mocks: the same table as the bwrap probe, each write attempt checked
// against the host's own value, with and without network.
const context = await useDockerTestContext('kernel-surface.probe.docker.test.ts');
const suffix = context.skipReason === undefined ? '' : ` (skipped: ${context.skipReason})`;

const variants = [
  { name: 'no network', hasNetwork: false },
  { name: 'with network', hasNetwork: true },
];

describe.skipIf(context.skipReason !== undefined).each(variants)(`Docker sandbox, $name: the host kernel is out of reach${suffix}`, (variant) => {
  let sandbox: DockerSandbox;

  beforeAll(async () => {
    sandbox = await context.createSandbox({ hasNetwork: variant.hasNetwork }, 'kernel-probe');
  });

  afterAll(async () => {
    await sandbox?.dispose();
  });

  it.each(KERNEL_SURFACE_PROBES)('refuses: $name', async (probe) => {
    await expectProbeRefused(sandbox, probe);
  });
});
