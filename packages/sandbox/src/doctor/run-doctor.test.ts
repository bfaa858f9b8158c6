import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterEach, describe, expect, it } from 'vitest';
import { registerSandboxBackend } from '../registry/default-registry.js';
import { runDoctor } from './run-doctor.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('runDoctor without an engine', () => {
  it('lists every registered backend first, with what it isolates, and in the report', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentbench-doctor-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    cleanups.push(registerSandboxBackend({ name: 'doctor-test', description: 'registered by a test', load: () => Promise.reject(new Error('never loaded')) }));
    const report = await runDoctor({ docker: new Dockerode({ socketPath: join(folder, 'docker.sock') }) });
    expect(report.checks[0]).toEqual({
      name: 'sandbox backends',
      status: 'ok',
      detail: 'docker (container), bwrap (namespaces), local (no isolation), doctor-test (promises nothing)',
      isRequired: false,
    });
    expect(report.backends.map((backend) => backend.name)).toEqual(['docker', 'bwrap', 'local', 'doctor-test']);
    expect(report.checks.find((check) => check.name === 'docker engine')?.status).toBe('fail');
    expect(report.checks.find((check) => check.name === 'gvisor runtime')).toMatchObject({ status: 'skip', isRequired: false });
    expect(report.isHealthy).toBe(false);
  });
});
