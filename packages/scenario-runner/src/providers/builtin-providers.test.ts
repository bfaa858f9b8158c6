import { sandboxBackendRegistry } from '@agentbench/sandbox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localProviderFactory } from './builtin-providers.js';
import { scenarioSandboxSpec } from './scenario-sandbox-spec.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the built-in providers', () => {
  it('local makes its sandbox through the sandbox registry, silenced and labelled for the scenario', async () => {
    const create = vi.spyOn(sandboxBackendRegistry(), 'create');
    const provider = await localProviderFactory({
      environment: { type: 'local' },
      scenarioDir: '/tmp',
      scenarioName: 'registry check',
      runId: 'run-1',
      config: {},
      env: { AGENTBENCH_SERVICES_URL: 'http://127.0.0.1:1' },
    });
    try {
      expect(create).toHaveBeenCalledWith('local', { env: { AGENTBENCH_SERVICES_URL: 'http://127.0.0.1:1' }, labels: { runId: 'run-1', taskId: 'scenario:registry check' } }, { isWarningSilenced: true });
      expect((await provider.run('echo $AGENTBENCH_SERVICES_URL', { captureFiles: false })).stdout).toBe('http://127.0.0.1:1\n');
    } finally {
      await provider.teardown();
    }
  });

  it('passes the docker environment\'s runtime into the sandbox spec, and refuses it with network: bridge', () => {
    const context = { scenarioDir: '/tmp', scenarioName: 'gvisor', runId: 'run-2', config: {}, env: {} };
    expect(scenarioSandboxSpec({ ...context, environment: { type: 'docker', runtime: 'runsc' } })).toMatchObject({ runtime: 'runsc', hasNetwork: false });
    expect(scenarioSandboxSpec({ ...context, environment: { type: 'docker' } })).not.toHaveProperty('runtime');
    expect(() => scenarioSandboxSpec({ ...context, environment: { type: 'docker', runtime: 'runsc', network: 'bridge' } })).toThrow(
      /environment\.runtime "runsc" with network: bridge: a scenario under a container runtime runs without network/,
    );
  });
});
