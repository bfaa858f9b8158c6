import { describe, expect, it, vi } from 'vitest';
import { SandboxError } from '../contract/sandbox-error.js';
import { LocalSandbox } from '../local/local-sandbox.js';
import type { SandboxSpec } from '../contract/sandbox.js';
import { defineSandboxBackend } from './sandbox-backend.js';
import { SandboxBackendRegistry } from './sandbox-backend-registry.js';

function kindOf(error: unknown): string | undefined {
  return SandboxError.isInstance(error) ? error.kind : undefined;
}

/** A backend on the local sandbox whose loader and create are spies. */
function spiedBackend(name: string) {
  const create = vi.fn((spec: SandboxSpec, options: { marker?: string } | undefined) => LocalSandbox.create({ ...spec, env: { ...spec.env, MARKER: options?.marker ?? 'none' } }, { isWarningSilenced: true }));
  const load = vi.fn(async () => ({ create }));
  return { definition: defineSandboxBackend({ name, description: `test backend ${name}`, load }), load, create };
}

describe('SandboxBackendRegistry', () => {
  it('does not load a backend when it is registered or listed, only on the first create, and once', async () => {
    const registry = new SandboxBackendRegistry();
    const { definition, load, create } = spiedBackend('spied');
    registry.register(definition);
    expect(registry.list()).toEqual([{ name: 'spied', description: 'test backend spied', promises: undefined }]);
    expect(load).not.toHaveBeenCalled();

    const first = await registry.create('spied', { files: { 'a.txt': 'from the spec' } }, { marker: 'passed-through' });
    const second = await registry.create('spied', {}, undefined);
    try {
      expect(load).toHaveBeenCalledTimes(1);
      expect(create).toHaveBeenCalledTimes(2);
      expect(new TextDecoder().decode(await first.readFile('a.txt'))).toBe('from the spec');
      expect((await first.exec('echo $MARKER')).stdout).toBe('passed-through\n');
      expect((await second.exec('echo $MARKER')).stdout).toBe('none\n');
    } finally {
      await first.dispose();
      await second.dispose();
    }
  });

  it('refuses a second backend under a taken name, naming the first', () => {
    const registry = new SandboxBackendRegistry();
    registry.register(spiedBackend('twice').definition);
    const error = (() => {
      try {
        registry.register(spiedBackend('twice').definition);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(kindOf(error)).toBe('invalid_spec');
    expect((error as Error).message).toBe('sandbox backend "twice" is already registered (test backend twice); a backend needs a name of its own');
  });

  it('refuses an unknown name with invalid_spec listing the registered names', async () => {
    const registry = new SandboxBackendRegistry();
    registry.register(spiedBackend('first').definition);
    registry.register(spiedBackend('second').definition);
    const error = await registry.create('kubernetes', {}, undefined).catch((caught: unknown) => caught);
    expect(kindOf(error)).toBe('invalid_spec');
    expect((error as Error).message).toBe('unknown sandbox backend "kubernetes"; expected one of first, second');
  });

  it('refuses names that are not short identifiers and definitions without a loader or with bad promises', () => {
    const registry = new SandboxBackendRegistry();
    const load = async () => ({ create: () => Promise.reject(new Error('unused')) });
    for (const name of ['', 'Docker', 'my backend', '9lives', 'x'.repeat(33), '../docker']) {
      expect(() => registry.register({ name, description: 'd', load })).toThrow(/sandbox backend name .* is not valid: expected a lower-case identifier/);
    }
    expect(() => registry.register({ name: 'no-loader', description: 'd' } as never)).toThrow('sandbox backend "no-loader": load: expected a function');
    expect(() => registry.register({ name: 'bad-promises', description: 'd', load, promises: { isolation: 'total', cutsNetwork: 'yes', limits: 'enforced' } } as never)).toThrow(
      'sandbox backend "bad-promises": promises.isolation: expected one of none, namespaces, container, virtual-machine, found "total"; promises.cutsNetwork: expected a boolean, found "yes"',
    );
    expect(registry.names()).toEqual([]);
  });

  it('reports a loader that fails as backend_unavailable and tries again on the next create', async () => {
    const registry = new SandboxBackendRegistry();
    const load = vi.fn().mockRejectedValueOnce(new Error("Cannot find package 'e2b'")).mockResolvedValue({ create: () => LocalSandbox.create({}, { isWarningSilenced: true }) });
    registry.register({ name: 'flaky', description: 'loads the second time', load });
    const error = await registry.create('flaky', {}, undefined).catch((caught: unknown) => caught);
    expect(kindOf(error)).toBe('backend_unavailable');
    expect((error as Error).message).toBe('sandbox backend "flaky" failed to load: Cannot find package \'e2b\'');
    const sandbox = await registry.create('flaky', {}, undefined);
    await sandbox.dispose();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('refuses a loader without create and a create that makes no sandbox', async () => {
    const registry = new SandboxBackendRegistry();
    registry.register({ name: 'empty', description: 'loads nothing', load: async () => ({}) as never });
    registry.register({ name: 'hollow', description: 'makes nothing', load: async () => ({ create: async () => ({ id: 'x' }) as never }) });
    await expect(registry.create('empty', {}, undefined)).rejects.toThrow('sandbox backend "empty": load() must resolve to {create(spec, options)}, found object');
    await expect(registry.create('hollow', {}, undefined)).rejects.toThrow('sandbox backend "hollow": create() must resolve to a Sandbox (with exec, dispose, ...), found object');
  });

  it('unregisters exactly the registration it was given for', () => {
    const registry = new SandboxBackendRegistry();
    const unregister = registry.register(spiedBackend('temporary').definition);
    unregister();
    expect(registry.names()).toEqual([]);
    const replacement = registry.register(spiedBackend('temporary').definition);
    unregister();
    expect(registry.names()).toEqual(['temporary']);
    replacement();
    expect(registry.names()).toEqual([]);
  });
});
