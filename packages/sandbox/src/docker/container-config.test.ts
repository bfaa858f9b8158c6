import { describe, expect, it } from 'vitest';
import { SandboxError } from '../contract/sandbox-error.js';
import { EXECUTOR_SCRIPT } from '../core/executor/executor-script.js';
import { COMMAND_MAX_PROCESSES_VARIABLE, DEFAULT_DOCKER_IMAGE, GVISOR_HOST_PIDS_BASE, GVISOR_HOST_PIDS_PER_PROCESS, planContainer } from './container-config.js';

const base = { name: 'agentbench-test', labels: { 'dev.agentbench.managed': 'true' } };

describe('planContainer', () => {
  it('hardens by default: no capabilities, no new privileges, limits, tmpfs /tmp, init, no network', () => {
    const plan = planContainer({ ...base, spec: {} });
    expect(plan.image).toBe(DEFAULT_DOCKER_IMAGE);
    expect(plan.workdir).toBe('/workspace');
    const host = plan.createOptions.HostConfig!;
    expect(host.CapDrop).toEqual(['ALL']);
    expect(host.SecurityOpt).toEqual(['no-new-privileges']);
    expect(host.PidsLimit).toBe(256);
    expect(host.Memory).toBe(2048 * 1024 * 1024);
    expect(host.MemorySwap).toBe(host.Memory);
    expect(host.NanoCpus).toBe(2e9);
    expect(host.Init).toBe(true);
    expect(Object.keys(host.Tmpfs!)).toEqual(['/tmp']);
    expect(host.NetworkMode).toBe('none');
    expect(plan.createOptions.Labels).toEqual(base.labels);
  });

  it('runs the executor for the workdir as the main process, with stdin open for it', () => {
    const plan = planContainer({ ...base, spec: { workdir: '/work' } });
    const entrypoint = plan.createOptions.Entrypoint as string[];
    expect(entrypoint.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(entrypoint).toContain('python3');
    expect(entrypoint.at(-1)).toBe('/work');
    expect(plan.createOptions.Cmd).toEqual([]);
    expect(plan.createOptions).toMatchObject({ OpenStdin: true, StdinOnce: false, AttachStdin: true, Tty: false });
    // The protocol carries every command's output: the engine must not log it again.
    expect(plan.createOptions.HostConfig!.LogConfig).toEqual({ Type: 'none', Config: {} });
  });

  it('joins a network holder when given one, else the bridge only with hasNetwork', () => {
    expect(planContainer({ ...base, spec: { hasNetwork: true } }).createOptions.HostConfig!.NetworkMode).toBe('bridge');
    expect(planContainer({ ...base, spec: {}, networkHolderId: 'abc' }).createOptions.HostConfig!.NetworkMode).toBe('container:abc');
    expect(planContainer({ ...base, spec: { hasNetwork: true }, networkHolderId: 'abc' }).createOptions.HostConfig!.NetworkMode).toBe('container:abc');
  });

  it('asks the engine for no network at all when given a hosts file, which it mounts read-only as /etc/hosts with IPv6 off', () => {
    const plain = planContainer({ ...base, spec: {} }).createOptions;
    expect(plain.NetworkDisabled).toBeUndefined();
    expect(plain.HostConfig!.Mounts).toBeUndefined();
    const plan = planContainer({ ...base, spec: { mountWorkspace: '/host/ws' }, engineNetworklessHostsFile: '/tmp/agentbench-hosts-x:y/hosts' }).createOptions;
    expect(plan.NetworkDisabled).toBe(true);
    expect(plan.HostConfig!.NetworkMode).toBe('none');
    expect(plan.HostConfig!.Mounts).toEqual([{ Type: 'bind', Source: '/tmp/agentbench-hosts-x:y/hosts', Target: '/etc/hosts', ReadOnly: true }]);
    expect(plan.HostConfig!.Binds).toEqual(['/host/ws:/workspace:rw']);
    expect(plan.HostConfig!.Sysctls).toEqual({ 'net.ipv6.conf.all.disable_ipv6': '1' });
    for (const input of [{ spec: { hasNetwork: true } }, { spec: {}, networkHolderId: 'abc' }, { spec: { runtime: 'runsc' } }]) {
      expect(() => planContainer({ ...base, ...input, engineNetworklessHostsFile: '/tmp/hosts' })).toThrow(/no network, no holder and the default runtime/);
    }
  });

  it('applies the spec: image, workdir, limits, env, a mounted workspace and its user', () => {
    const plan = planContainer({
      ...base,
      spec: { image: 'custom:1', workdir: '/work/', limits: { memoryMb: 256, cpus: 0.5, pids: 32 }, env: { A: '1' }, mountWorkspace: '/host/repo' },
      user: '1000:1000',
    });
    const host = plan.createOptions.HostConfig!;
    expect(plan.createOptions.Image).toBe('custom:1');
    expect(plan.workdir).toBe('/work');
    expect(plan.createOptions.WorkingDir).toBe('/work');
    expect(host.Memory).toBe(256 * 1024 * 1024);
    expect(host.NanoCpus).toBe(5e8);
    expect(host.PidsLimit).toBe(32);
    expect(plan.createOptions.Env).toEqual(['A=1']);
    expect(host.Binds).toEqual(['/host/repo:/work:rw']);
    expect(plan.createOptions.User).toBe('1000:1000');
  });

  it('bind-mounts readOnlyMounts read-only beside the workspace, and refuses a relative path or one the engine would split', () => {
    const plan = planContainer({ ...base, spec: { mountWorkspace: '/host/repo', readOnlyMounts: [{ hostPath: '/tmp/gateway-x', sandboxPath: '/run/agentbench-gateway/' }] } });
    expect(plan.createOptions.HostConfig!.Binds).toEqual(['/host/repo:/workspace:rw', '/tmp/gateway-x:/run/agentbench-gateway:ro']);
    expect(() => planContainer({ ...base, spec: { readOnlyMounts: [{ hostPath: 'relative', sandboxPath: '/x' }] } })).toThrow(/readOnlyMounts\[0\]\.hostPath: expected an absolute path/);
    expect(() => planContainer({ ...base, spec: { readOnlyMounts: [{ hostPath: '/a', sandboxPath: '/x:rw' }] } })).toThrow(/readOnlyMounts\[0\]\.sandboxPath/);
  });

  it('under gVisor gives the container room for its kernel\'s host threads and caps each command\'s processes at limits.pids instead', () => {
    const plan = planContainer({ ...base, spec: { runtime: 'runsc', limits: { pids: 64 }, env: { A: '1' } } });
    expect(plan.createOptions.HostConfig!.PidsLimit).toBe(64 * GVISOR_HOST_PIDS_PER_PROCESS + GVISOR_HOST_PIDS_BASE);
    expect(plan.createOptions.Env).toEqual(['A=1', `${COMMAND_MAX_PROCESSES_VARIABLE}=64`]);
    // The executor reads the same variable.
    expect(EXECUTOR_SCRIPT).toContain(`MAX_PROCESSES_VARIABLE = '${COMMAND_MAX_PROCESSES_VARIABLE}'`);
    // The setup phase of a deferred move runs under runc: the plain limit, no cap.
    const setup = planContainer({ ...base, spec: { runtime: 'runsc', limits: { pids: 64 } }, isRuntimeDeferred: true });
    expect(setup.createOptions.HostConfig!.PidsLimit).toBe(64);
    expect(setup.createOptions.Env).toEqual([]);
  });

  it('runs under the spec runtime, or the engine default while the runtime is deferred (setup with network)', () => {
    expect(planContainer({ ...base, spec: {} }).createOptions.HostConfig!.Runtime).toBeUndefined();
    const gvisor = planContainer({ ...base, spec: { runtime: 'runsc' } });
    expect(gvisor.runtime).toBe('runsc');
    expect(gvisor.createOptions.HostConfig!.Runtime).toBe('runsc');
    const deferred = planContainer({ ...base, spec: { runtime: 'runsc', hasNetwork: true }, isRuntimeDeferred: true });
    expect(deferred.runtime).toBeUndefined();
    expect(deferred.createOptions.HostConfig!.Runtime).toBeUndefined();
    expect(deferred.createOptions.HostConfig!.NetworkMode).toBe('bridge');
    expect(() => planContainer({ ...base, spec: { runtime: 'runsc' }, networkHolderId: 'abc' })).toThrow(/cannot join a network holder/);
  });

  it('caps the default CPU quota at what the engine has', () => {
    expect(planContainer({ ...base, spec: {}, engineCpus: 1 }).createOptions.HostConfig!.NanoCpus).toBe(1e9);
    expect(planContainer({ ...base, spec: {}, engineCpus: 16 }).createOptions.HostConfig!.NanoCpus).toBe(2e9);
  });

  it('names the field and the expected value for a bad spec', () => {
    const cases: Array<[Parameters<typeof planContainer>[0]['spec'], RegExp]> = [
      [{ workdir: 'relative' }, /SandboxSpec\.workdir: expected an absolute path/],
      [{ workdir: '/' }, /workspace cannot be "\/"/],
      [{ limits: { memoryMb: 1 } }, /SandboxSpec\.limits\.memoryMb: expected a number ≥ 6, found 1/],
      [{ limits: { cpus: 0 } }, /SandboxSpec\.limits\.cpus: expected a number ≥ 0\.01, found 0/],
      [{ limits: { pids: 10.5 } }, /SandboxSpec\.limits\.pids: expected a whole number/],
      [{ image: ' ' }, /SandboxSpec\.image: expected an image reference/],
      [{ hostWorkspace: '/a', mountWorkspace: '/b' }, /either hostWorkspace .* or mountWorkspace/],
      [{ mountWorkspace: 'relative' }, /SandboxSpec\.mountWorkspace: expected an absolute host path/],
      [{ runtime: 'run sc' }, /SandboxSpec\.runtime: expected a container runtime name .* found "run sc"/],
      [{ runtime: '' }, /SandboxSpec\.runtime: expected a container runtime name/],
    ];
    for (const [spec, message] of cases) {
      let caught: unknown;
      try {
        planContainer({ ...base, spec });
      } catch (error) {
        caught = error;
      }
      expect(SandboxError.isInstance(caught), JSON.stringify(spec)).toBe(true);
      expect((caught as SandboxError).kind).toBe('invalid_spec');
      expect((caught as Error).message).toMatch(message);
    }
  });
});
