import type Dockerode from 'dockerode';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../contract/sandbox-error.js';
import { checkRuntimeName, isNetworklessRuntimeArgs, resolveRuntime } from './container-runtime.js';

/** An engine whose `info()` answers `runtimes` (as `docker info` lists them). */
function engineWith(runtimes: Record<string, { path?: string; runtimeArgs?: string[] | null }>): Dockerode {
  return { info: async () => ({ Runtimes: runtimes, DefaultRuntime: 'runc' }) } as unknown as Dockerode;
}

describe('container runtimes', () => {
  it('reads a runtime registered with --network=none (either spelling) as network-less', () => {
    expect(isNetworklessRuntimeArgs(['--network=none'])).toBe(true);
    expect(isNetworklessRuntimeArgs(['--platform=ptrace', '--network', 'none'])).toBe(true);
    expect(isNetworklessRuntimeArgs(['--network=sandbox'])).toBe(false);
    expect(isNetworklessRuntimeArgs(null)).toBe(false);
    expect(isNetworklessRuntimeArgs(undefined)).toBe(false);
  });

  it("resolves a registered runtime from the engine's info", async () => {
    const docker = engineWith({ runc: { path: 'runc' }, runsc: { path: '/usr/bin/runsc', runtimeArgs: ['--network=none'] }, kata: { path: '/usr/bin/kata' } });
    expect(await resolveRuntime(docker, 'runsc')).toEqual({ name: 'runsc', path: '/usr/bin/runsc', isNetworkless: true });
    expect(await resolveRuntime(docker, 'kata')).toEqual({ name: 'kata', path: '/usr/bin/kata', isNetworkless: false });
  });

  it('refuses a runtime the engine does not list, naming the registered ones and the fix', async () => {
    const error = await resolveRuntime(engineWith({ runc: { path: 'runc' } }), 'runsc').catch((caught: unknown) => caught);
    expect(SandboxError.isInstance(error)).toBe(true);
    expect((error as SandboxError).kind).toBe('runtime_unavailable');
    expect((error as Error).message).toBe(
      'container runtime "runsc" is not registered with the Docker engine (it has: runc); install and register gVisor with `scripts/setup.sh --with-gvisor` (runtime "runsc"), then check it with `ab doctor`',
    );
  });

  it('checks the shape of a runtime name', () => {
    expect(checkRuntimeName('io.containerd.runc.v2')).toBe('io.containerd.runc.v2');
    expect(() => checkRuntimeName('run sc')).toThrow('SandboxSpec.runtime: expected a container runtime name registered with the engine, such as "runsc" or "runc", found "run sc"');
    expect(() => checkRuntimeName(7)).toThrow(/found 7/);
  });
});
