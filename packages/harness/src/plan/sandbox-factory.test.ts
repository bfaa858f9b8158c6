import path from 'node:path';
import { LocalSandbox, NetworkHolderPool, registerSandboxBackend, type SandboxSpec } from '@agentbench/sandbox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLoopFixture, FIXING_PATCH } from '../../../agent-loop/test/fixtures.js';
import { runAgentAttempt } from '../attempt/run-agent-attempt.js';
import { pooledDockerSandboxFactory, sandboxFactoryFor, withRuntime } from './sandbox-factory.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An engine client whose every call fails naming the method: shows which client a sandbox used. */
function unreachableEngine(label: string): never {
  return new Proxy({}, { get: (_target, property) => () => Promise.reject(new Error(`${label} engine asked for ${String(property)}`)) }) as never;
}

describe('sandboxFactoryFor', () => {
  it('makes each attempt sandbox through the registry, on the named backend with its options', async () => {
    const create = vi.fn((spec: SandboxSpec, options: { tag: string } | undefined) => LocalSandbox.create({ ...spec, env: { TAG: options?.tag ?? '' } }, { isWarningSilenced: true }));
    cleanups.push(registerSandboxBackend({ name: 'harness-recording', description: 'a local sandbox that records what it was asked', load: async () => ({ create }) }));
    const factory = sandboxFactoryFor('harness-recording', { backendOptions: { tag: 'attempt-7' } });
    expect(create).not.toHaveBeenCalled();
    const sandbox = await factory({ files: { 'task.txt': 'fix it' } });
    cleanups.push(() => sandbox.dispose());
    expect(create).toHaveBeenCalledWith({ files: { 'task.txt': 'fix it' } }, { tag: 'attempt-7' });
    expect((await sandbox.exec('echo "$TAG: $(cat task.txt)"')).stdout).toBe('attempt-7: fix it\n');
  });

  it('runs a whole agent attempt (baseline, agent, fresh verdict sandbox) on a backend registered by name', async () => {
    const create = vi.fn((spec: SandboxSpec) => LocalSandbox.create(spec, { isWarningSilenced: true }));
    cleanups.push(registerSandboxBackend({ name: 'harness-attempt', description: 'local sandboxes, counted', load: async () => ({ create }) }));
    const fixture = await createLoopFixture({ script: [{ tool: 'apply_patch', args: { unified_diff: FIXING_PATCH } }] });
    cleanups.push(() => fixture.cleanup());
    const { record } = await runAgentAttempt({ task: fixture.task, outDir: path.join(fixture.root, 'out'), createSandbox: sandboxFactoryFor('harness-attempt') });
    expect(record.result).toMatchObject({ passed: true, failure_reason: null });
    // The baseline's, the agent's and the final verdict's sandbox all came from the registered backend.
    expect(create.mock.calls.length).toBeGreaterThanOrEqual(3);
  });

  it("gives every sandbox of an attempt the task's environment.runtime, and withRuntime (--runtime) wins over it", async () => {
    const create = vi.fn((spec: SandboxSpec) => LocalSandbox.create(spec, { isWarningSilenced: true }));
    cleanups.push(registerSandboxBackend({ name: 'harness-runtime', description: 'local sandboxes, specs recorded', load: async () => ({ create }) }));
    const fixture = await createLoopFixture({ script: [{ tool: 'apply_patch', args: { unified_diff: FIXING_PATCH } }] });
    cleanups.push(() => fixture.cleanup());
    fixture.task.task.environment.runtime = 'runsc';
    const first = await runAgentAttempt({ task: fixture.task, outDir: path.join(fixture.root, 'out-task'), createSandbox: sandboxFactoryFor('harness-runtime') });
    expect(first.record.result.passed).toBe(true);
    const taskRuntimes = create.mock.calls.map(([spec]) => spec.runtime);
    expect(taskRuntimes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(taskRuntimes)).toEqual(new Set(['runsc']));
    create.mockClear();
    await runAgentAttempt({ task: fixture.task, outDir: path.join(fixture.root, 'out-flag'), createSandbox: withRuntime(sandboxFactoryFor('harness-runtime'), 'runc') });
    expect(new Set(create.mock.calls.map(([spec]) => spec.runtime))).toEqual(new Set(['runc']));
    expect(withRuntime(create as never, undefined)).toBe(create);
  });

  it('refuses an unknown backend when the factory is made, naming the registered ones', () => {
    expect(() => sandboxFactoryFor('kubernetes')).toThrow('unknown sandbox backend "kubernetes"; expected one of docker, bwrap, local');
  });

  it('pooled docker sandboxes are made with the pool as the docker backend\'s networkHolders (so on its engine)', async () => {
    // Were the pool dropped, the default engine would be asked: point it nowhere.
    vi.stubEnv('DOCKER_HOST', 'unix:///nonexistent/agentbench-test.sock');
    cleanups.push(() => vi.unstubAllEnvs());
    const pool = new NetworkHolderPool({ docker: unreachableEngine('the pool') });
    const error = await pooledDockerSandboxFactory(pool)({ limits: { cpus: 1 } }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('the pool engine asked for');
  });
});
