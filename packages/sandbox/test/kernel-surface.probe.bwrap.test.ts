import { mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BwrapSandbox } from '../src/bwrap/bwrap-sandbox.js';
import { useBwrapTestContext } from './helpers/bwrap-test-context.js';
import { expectProbeRefused, KERNEL_SURFACE_PROBES } from './helpers/kernel-surface-probes.js';
import { processesWithMarker, uniqueSleep } from './helpers/processes.js';

// Real bwrap, no mocks: every write attempt of the table runs inside a sandbox and is
// checked against the host's own value. Variants: both command paths, with and without
// network (with it, the sandbox shares the host's network namespace).
const { skipReason, rootfs } = await useBwrapTestContext('kernel-surface.probe.bwrap.test.ts');
const suffix = skipReason === undefined ? '' : ` (skipped: ${skipReason})`;
const isRoot = process.getuid?.() === 0;

const variants = [
  { name: 'executor, no network', shouldUseExecutor: true, hasNetwork: false },
  { name: 'executor, with network', shouldUseExecutor: true, hasNetwork: true },
  { name: 'one bwrap per command, no network', shouldUseExecutor: false, hasNetwork: false },
  { name: 'one bwrap per command, with network', shouldUseExecutor: false, hasNetwork: true },
];

describe.skipIf(skipReason !== undefined).each(variants)(`bwrap sandbox, $name: the host kernel is out of reach${suffix}`, (variant) => {
  let sandbox: BwrapSandbox;
  let workspace: string;

  beforeAll(async () => {
    workspace = await realpath(await mkdtemp(join(tmpdir(), 'agentbench-kernel-probe-')));
    sandbox = await BwrapSandbox.create({ rootfs, mountWorkspace: workspace, hasNetwork: variant.hasNetwork }, { shouldUseExecutor: variant.shouldUseExecutor });
  });

  afterAll(async () => {
    await sandbox?.dispose();
    await rm(workspace, { recursive: true, force: true });
  });

  it.each(KERNEL_SURFACE_PROBES)('refuses: $name', async (probe) => {
    await expectProbeRefused(sandbox, probe);
  });

  it('runs as root inside, which is not root on the host: files it makes and its processes belong to an unprivileged user', async () => {
    const marker = uniqueSleep();
    const stopSleeping = new AbortController();
    const sleeping = sandbox.exec(`sleep ${marker}`, { timeoutSec: 60, signal: stopSleeping.signal });
    const made = await sandbox.exec('id -u; touch made-inside.txt /tmp/made-inside.txt; mkdir -p made-folder');
    expect(made).toMatchObject({ exitCode: 0, stdout: '0\n' });
    const expectedUid = isRoot ? 65534 : process.getuid?.();
    for (const path of [join(workspace, 'made-inside.txt'), join(workspace, 'made-folder'), join(sandbox.stateFolder, 'tmp', 'made-inside.txt')]) {
      const owner = await stat(path);
      expect(owner.uid, path).not.toBe(0);
      expect(owner.uid, path).toBe(expectedUid);
    }
    const [processLine] = await processesWithMarker(marker);
    expect(processLine, 'the sleeping command on the host').toBeDefined();
    const hostPid = (processLine ?? '').split(':')[0] ?? '';
    const uids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/m.exec(await readFile(`/proc/${hostPid}/status`, 'utf8'));
    expect(uids?.slice(1).map(Number)).toEqual([expectedUid, expectedUid, expectedUid, expectedUid]);
    stopSleeping.abort();
    await sleeping;
  });
});
