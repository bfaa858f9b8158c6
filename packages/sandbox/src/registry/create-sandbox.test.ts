import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalSandbox } from '../local/local-sandbox.js';
import { createSandbox } from './create-sandbox.js';
import { listSandboxBackends, registerSandboxBackend, sandboxBackendDefinition, sandboxBackendNames } from './default-registry.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the process registry', () => {
  it('holds the three built-ins, each with what it promises', () => {
    expect(sandboxBackendNames().slice(0, 3)).toEqual(['docker', 'bwrap', 'local']);
    const promises = Object.fromEntries(listSandboxBackends().map((backend) => [backend.name, backend.promises]));
    expect(promises['docker']).toEqual({ isolation: 'container', cutsNetwork: true, limits: 'enforced' });
    expect(promises['bwrap']).toEqual({ isolation: 'namespaces', cutsNetwork: true, limits: 'best-effort' });
    expect(promises['local']).toEqual({ isolation: 'none', cutsNetwork: false, limits: 'ignored' });
  });

  it('makes a working sandbox on a backend a test registers, passing spec and backend options through', async () => {
    const load = vi.fn(async () => ({
      create: (spec: Parameters<typeof LocalSandbox.create>[0], options: { greeting: string } | undefined) =>
        LocalSandbox.create({ ...spec, env: { GREETING: options?.greeting ?? '' } }, { isWarningSilenced: true }),
    }));
    cleanups.push(registerSandboxBackend({ name: 'test-greeter', description: 'a local sandbox that greets', load }));
    expect(sandboxBackendNames()).toContain('test-greeter');
    expect(load).not.toHaveBeenCalled();
    const sandbox = await createSandbox('test-greeter', { files: { 'name.txt': 'world' } }, { backendOptions: { greeting: 'hello' } });
    cleanups.push(() => sandbox.dispose());
    expect((await sandbox.exec('echo "$GREETING $(cat name.txt)"')).stdout).toBe('hello world\n');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('refuses to register a built-in name again', () => {
    expect(() => registerSandboxBackend({ name: 'docker', description: 'an impostor', load: async () => ({ create: () => Promise.reject(new Error('unused')) }) })).toThrow(
      /sandbox backend "docker" is already registered \(hardened Docker container/,
    );
    expect(sandboxBackendDefinition('docker')?.description).toMatch(/^hardened Docker container/);
  });

  it('is where local sandboxes come from, and an unknown name lists every registered one', async () => {
    const sandbox = await createSandbox('local', {}, { backendOptions: { isWarningSilenced: true } });
    cleanups.push(() => sandbox.dispose());
    expect(sandbox).toBeInstanceOf(LocalSandbox);
    await expect(createSandbox('kubernetes')).rejects.toThrow('unknown sandbox backend "kubernetes"; expected one of docker, bwrap, local');
  });
});
