import path from 'node:path';
import { LocalSandbox, sandboxBackendNames, type SandboxSpec } from '@agentbench/sandbox';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { planScenario } from '../src/plan/plan-scenario.js';
import { sandboxBackendProvider } from '../src/providers/sandbox-backend-provider.js';
import { runScenario } from '../src/run/run-scenario.js';

// A plugin written as a plain module in a temporary folder cannot import this workspace's packages:
// the test builds its provider and hands it over through a global.
const HANDOVER = Symbol.for('agentbench.test.sandbox-backend-plugin');
const pluginModule = (name: string) => `export default { name: '${name}', version: '1.0.0', environmentProviders: globalThis[Symbol.for('agentbench.test.sandbox-backend-plugin')]['${name}'] };\n`;

const scenario = (pluginFile: string) => `name: On a plugin's sandbox backend
description: setup files and a code step on a sandbox the plugin's backend made
plugins:
  - name: ./${pluginFile}
    config: { greeting: hi }
environment:
  type: test-sandbox
setup:
  virtual_fs:
    note.txt: from setup
run:
  - code: echo "$(cat note.txt), $GREETING"
    evaluations:
      - type: string_contains
        value: from setup, hi
judgment:
  strategy: all_pass
`;

const create = vi.fn((spec: SandboxSpec, options: { greeting?: string } | undefined) => LocalSandbox.create({ ...spec, env: { ...spec.env, GREETING: options?.greeting ?? '' } }, { isWarningSilenced: true }));
const load = vi.fn(async () => ({ create }));
const backend = { name: 'test-sandbox', description: 'local sandboxes for a test', promises: { isolation: 'none', cutsNetwork: false, limits: 'ignored' } as const, load };

let directory: TemporaryDirectory;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
  (globalThis as Record<symbol, unknown>)[HANDOVER] = {
    'backend-plugin': [sandboxBackendProvider(backend)],
    // Another definition under the same name, and one whose backend does not match its type.
    impostor: [sandboxBackendProvider({ ...backend, description: 'an impostor' })],
    mismatched: [{ ...sandboxBackendProvider({ ...backend, name: 'other-sandbox' }), type: 'test-sandbox' }],
  };
  await directory.write('backend-plugin.mjs', pluginModule('backend-plugin'));
  await directory.write('impostor.mjs', pluginModule('impostor'));
  await directory.write('mismatched.mjs', pluginModule('mismatched'));
});
afterEach(async () => {
  await directory.remove();
});

describe('a plugin that offers a sandbox backend', () => {
  it('is planned as a sandbox with the tools service, without loading the backend', async () => {
    const file = await directory.write('s.scenario.yaml', scenario('backend-plugin.mjs'));
    const plan = await planScenario(file, { plugins: { configFile: false } });
    expect(plan.environment).toEqual({ type: 'test-sandbox', status: 'plugin', detail: 'sandbox backend (isolation: none) from plugin backend-plugin 1.0.0' });
    expect(plan.services.map((service) => service.name)).toContain('tools');
    expect(load).not.toHaveBeenCalled();
  });

  it('is registered when the plugin loads, and the scenario runs on createSandbox(<type>) with the plugin config as options; a second run reuses it', async () => {
    const file = await directory.write('s.scenario.yaml', scenario('backend-plugin.mjs'));
    const first = await runScenario(file, { outDir: path.join(directory.path, 'out-1'), seed: 1, plugins: { configFile: false } });
    expect(first.status).toBe('passed');
    expect(sandboxBackendNames()).toContain('test-sandbox');
    expect(create).toHaveBeenCalledTimes(1);
    const [spec, options] = create.mock.calls[0]!;
    expect(options).toEqual({ greeting: 'hi' });
    expect(spec).toMatchObject({ hasNetwork: false, labels: { taskId: "scenario:On a plugin's sandbox backend" } });
    expect(Object.keys(spec.env ?? {})).toContain('AGENTBENCH_SERVICES_URL');

    const second = await runScenario(file, { outDir: path.join(directory.path, 'out-2'), seed: 1, plugins: { configFile: false } });
    expect(second.status).toBe('passed');
    expect(create).toHaveBeenCalledTimes(2);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('stops the run when another backend already holds the name, or the backend is named apart from its type', async () => {
    await runScenario(await directory.write('first.scenario.yaml', scenario('backend-plugin.mjs')), { outDir: path.join(directory.path, 'out-0'), seed: 1, plugins: { configFile: false } });
    const impostor = await directory.write('impostor.scenario.yaml', scenario('impostor.mjs'));
    await expect(runScenario(impostor, { outDir: path.join(directory.path, 'out-3'), seed: 1, plugins: { configFile: false } })).rejects.toThrow(
      'plugin impostor 1.0.0: sandbox backend "test-sandbox" is already registered in this process (local sandboxes for a test); a plugin\'s backend needs a name of its own',
    );
    const mismatched = await directory.write('mismatched.scenario.yaml', scenario('mismatched.mjs'));
    await expect(runScenario(mismatched, { outDir: path.join(directory.path, 'out-4'), seed: 1, plugins: { configFile: false } })).rejects.toThrow(
      'plugin mismatched 1.0.0: environment provider "test-sandbox": its sandboxBackend is named "other-sandbox"',
    );
  });
});
