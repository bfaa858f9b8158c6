import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Dockerode from 'dockerode';
import { checkGvisorRegistered } from '@agentbench/sandbox';
import { describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { toyTaskFile } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const skipReason = dockerSkipReason('runtime-option.docker.test.ts');
const gvisor = skipReason === undefined ? await checkGvisorRegistered(new Dockerode()) : undefined;
if (gvisor?.reason !== undefined) console.warn(`[skipped] runtime-option.docker.test.ts (gVisor part): ${gvisor.reason}`);

interface Printed {
  run_dir: string;
  record: { run_id: string; result: { passed: boolean; failure_reason: string | null; exit_code: number | null }; message?: string };
}

// Real attempts on a shared 2-core CI machine can pass the 60 s default; a hang still fails at 5 minutes.
describe.skipIf(skipReason !== undefined)('ab run-task --runtime in real Docker', { timeout: 300_000 }, () => {
  const scratch = useDockerScratch();

  it('fails an attempt under an unregistered runtime as a sandbox (infrastructure) error naming the runtime and the fix', async () => {
    const run = await runCli(['run-task', toyTaskFile('toy_pass_pytest'), '--out', scratch.path, '--runtime', 'no-such-runtime', '--json']);
    expect(run.exitCode).toBe(1);
    const printed = JSON.parse(run.stdout) as Printed;
    scratch.runIds.push(printed.record.run_id);
    expect(printed.record.result).toMatchObject({ passed: false, failure_reason: 'SANDBOX_ERROR' });
    const error = await readFile(path.join(printed.run_dir, 'logs', 'error.txt'), 'utf8');
    expect(error).toContain('container runtime "no-such-runtime" is not registered with the Docker engine');
    expect(error).toContain('daemon.json');
  });

  it.skipIf(gvisor?.isRegistered !== true)('passes a task with setup under --runtime runsc (setup under runc with network, then moved to gVisor)', async () => {
    const run = await runCli(['run-task', toyTaskFile('toy_pass_pytest'), '--out', scratch.path, '--runtime', 'runsc', '--json']);
    const printed = JSON.parse(run.stdout) as Printed;
    scratch.runIds.push(printed.record.run_id);
    expect(printed.record.result, run.stderr).toMatchObject({ passed: true, exit_code: 0 });
    // The record says what the tests ran under: gVisor, after setup under runc.
    expect(printed.record).toMatchObject({ backend: 'docker', runtime: 'runsc' });
  });
});
