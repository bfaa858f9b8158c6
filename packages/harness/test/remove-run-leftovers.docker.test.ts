import { hostname } from 'node:os';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { listManagedContainers } from '@agentbench/sandbox';
import { LABEL_HOSTNAME, LABEL_MANAGED, LABEL_PID, LABEL_POOL, LABEL_RUN_ID } from '../../sandbox/src/core/engine/labels.js';
import { afterAll, describe, expect, it } from 'vitest';
import { removeRunLeftovers } from '../src/run/remove-run-leftovers.js';
import { containersLeftBy, dockerSkipReason, RUNNER_IMAGE } from './helpers/docker-context.js';

const skipReason = dockerSkipReason('remove-run-leftovers.docker.test.ts');
const runId = `leftovers-test-${process.pid}`;

describe.skipIf(skipReason !== undefined)('removeRunLeftovers against the real engine', () => {
  /** A created (never started) container with our labels; its id and name. */
  const make = async (labels: Record<string, string>): Promise<{ id: string; name: string }> => {
    const all = { [LABEL_MANAGED]: 'true', [LABEL_RUN_ID]: runId, [LABEL_HOSTNAME]: hostname(), ...labels };
    const name = `agentbench-leftover-test-${process.pid}-${Object.keys(labels).length}-${Math.random().toString(36).slice(2, 8)}`;
    const { stdout } = await promisify(execFile)('docker', ['create', '--name', name, ...Object.entries(all).flatMap(([key, value]) => ['--label', `${key}=${value}`]), RUNNER_IMAGE, 'true']);
    return { id: stdout.trim(), name };
  };

  afterAll(async () => {
    await containersLeftBy(runId);
  });

  it("removes the run's containers this process made, by run or by pool, and never another live process's", async () => {
    const mine = await make({ [LABEL_PID]: String(process.pid) });
    const minePooled = await make({ [LABEL_PID]: String(process.pid), [LABEL_POOL]: `pool-${process.pid}` });
    // The parent (vitest's main process) is alive: its containers are not ours to remove.
    const someoneElses = await make({ [LABEL_PID]: String(process.ppid), [LABEL_POOL]: `pool-${process.pid}` });

    expect(await removeRunLeftovers({ poolId: `pool-${process.pid}` })).toEqual([minePooled.name]);
    expect((await listManagedContainers({ runId })).map((container) => container.id).sort()).toEqual([mine.id, someoneElses.id].sort());

    expect(await removeRunLeftovers({ runId })).toEqual([mine.name]);
    expect((await listManagedContainers({ runId })).map((container) => container.id)).toEqual([someoneElses.id]);
  });
});
