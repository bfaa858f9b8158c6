import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Dockerode from 'dockerode';
import { checkGvisorRegistered, listManagedContainers } from '@agentbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHarnessCli } from './harness-commands.js';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const skipReason = dockerSkipReason('runtime-option.docker.test.ts');
const gvisor = skipReason === undefined ? await checkGvisorRegistered(new Dockerode()) : undefined;
if (gvisor?.reason !== undefined) console.warn(`[skipped] runtime-option.docker.test.ts (gVisor part): ${gvisor.reason}`);

interface Printed {
  run_dir: string;
  record: { run_id: string; result: { passed: boolean; failure_reason: string | null; exit_code: number | null }; message?: string };
}

describe.skipIf(skipReason !== undefined)('ab run-task --runtime in real Docker', () => {
  let scratch: string;
  const runIds: string[] = [];
  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
    scratch = await mkdtemp(path.join(tmpdir(), 'ab-cli-runtime-docker-'));
  });
  afterAll(async () => {
    const left = (await Promise.all(runIds.map((runId) => listManagedContainers({ runId })))).flat();
    await rm(scratch, { recursive: true, force: true });
    expect(left.map((container) => container.name), 'containers left behind').toEqual([]);
  });

  it('fails an attempt under an unregistered runtime as a sandbox (infrastructure) error naming the runtime and the fix', async () => {
    const run = await runHarnessCli(['run-task', path.join(repoRoot, 'tasks/custom-dev/toy_pass_pytest/task.yaml'), '--out', scratch, '--runtime', 'no-such-runtime', '--json']);
    expect(run.exitCode).toBe(1);
    const printed = JSON.parse(run.stdout) as Printed;
    runIds.push(printed.record.run_id);
    expect(printed.record.result).toMatchObject({ passed: false, failure_reason: 'SANDBOX_ERROR' });
    const error = await readFile(path.join(printed.run_dir, 'logs', 'error.txt'), 'utf8');
    expect(error).toContain('container runtime "no-such-runtime" is not registered with the Docker engine');
    expect(error).toContain('daemon.json');
  });

  it.skipIf(gvisor?.isRegistered !== true)('passes a task with setup under --runtime runsc (setup under runc with network, then moved to gVisor)', async () => {
    const run = await runHarnessCli(['run-task', path.join(repoRoot, 'tasks/custom-dev/toy_pass_pytest/task.yaml'), '--out', scratch, '--runtime', 'runsc', '--json']);
    const printed = JSON.parse(run.stdout) as Printed;
    runIds.push(printed.record.run_id);
    expect(printed.record.result, run.stderr).toMatchObject({ passed: true, exit_code: 0 });
  });
});
