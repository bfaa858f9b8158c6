import { sandboxBackendRegistry } from '@agentbench/sandbox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localProviderFactory } from './builtin-providers.js';

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
});
