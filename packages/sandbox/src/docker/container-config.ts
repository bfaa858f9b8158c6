import { posix } from 'node:path';
import type Dockerode from 'dockerode';
import { SandboxError } from '../contract/sandbox-error.js';
import type { SandboxSpec } from '../contract/sandbox.js';
import { checkRuntimeName } from './container-runtime.js';
import { mainProcessEntrypoint } from './main-process.js';
import { isGvisorRuntime } from './runtime-hint.js';
import { checkWorkdir } from '../core/workspace/workdir-check.js';

/** The runner image, and its one home: the default of a sandbox spec, `ab doctor`, `ab image`, scenario environments and imported SWE-bench tasks. */
export const DEFAULT_DOCKER_IMAGE = 'agentbench/py-runner:0.1.0';
export const DEFAULT_WORKDIR = '/workspace';
export const DEFAULT_MEMORY_MB = 2048;
/** Two cores, or fewer when the engine has fewer (it refuses a quota above its CPU count). */
export const DEFAULT_CPUS = 2;
export const DEFAULT_PIDS = 256;
/**
 * Under gVisor the container's pids limit counts host threads: gVisor's own kernel (the Sentry)
 * and a few per sandboxed process (measured with runsc 2022-12: about 60 idle, about 10 more per
 * process, more under load: a fork bomb capped at 64 processes took 1,000). `limits.pids` is then kept by the executor (each command's RLIMIT_NPROC) and the
 * container gets this much room, so the limit ends the command that hits it, not the sandbox.
 */
export const GVISOR_HOST_PIDS_PER_PROCESS = 32;
export const GVISOR_HOST_PIDS_BASE = 256;
/** Read (and removed from its environment) by the executor: the per-command process cap. */
export const COMMAND_MAX_PROCESSES_VARIABLE = 'AGENTBENCH_COMMAND_MAX_PROCESSES';
/** The network a sandbox joins while it has network. */
export const SANDBOX_NETWORK = 'bridge';
/**
 * A sandbox created without network starts on `none` (no veth to set up, no disconnect to
 * wait for); `setNetwork(true)` later leaves `none` and joins the bridge, which the engine allows.
 */
export const NO_NETWORK = 'none';

export interface ContainerPlan {
  image: string;
  workdir: string;
  memoryMb: number;
  cpus: number;
  pids: number;
  /** The OCI runtime the container runs under; undefined: the engine's default. */
  runtime: string | undefined;
  createOptions: Dockerode.ContainerCreateOptions;
}

export interface ContainerPlanInput {
  spec: SandboxSpec;
  name: string;
  labels: Record<string, string>;
  /** CPUs the engine has; caps the default quota. */
  engineCpus?: number;
  /** `uid:gid` to run as; default: the image's user. */
  user?: string;
  /** A started network holder whose network namespace the sandbox joins (see network-holder-pool.ts). */
  networkHolderId?: string;
  /**
   * Run under the engine's default runtime even though the spec names one: the setup phase of a
   * sandbox whose runtime has no network (it moves to that runtime when the network is cut).
   */
  isRuntimeDeferred?: boolean;
  /**
   * The sandbox never has network, and the engine makes none for it (`NetworkDisabled`): runc gives
   * it a network namespace of its own with loopback alone, without the engine's network sandbox,
   * whose two re-executions of dockerd per container (`libnetwork-setkey`, `set-ipv6`) are most of
   * what `--network none` costs over it. The engine then writes no /etc/hosts: this host file is
   * mounted read-only in its place, and IPv6 is off, as under `none`. Only on an engine of this
   * host (the file is a host path), under its default runtime.
   */
  engineNetworklessHostsFile?: string;
}

/**
 * Create options of a hardened sandbox container: all capabilities dropped,
 * no-new-privileges, pid/memory (no swap)/CPU limits, a tmpfs /tmp, docker-init as PID 1
 * reaping zombies, and the executor as the main process (stdin open and attached). Its
 * network: a holder's namespace when one is given, else the bridge with `hasNetwork`, else `none`.
 */
export function planContainer(input: ContainerPlanInput): ContainerPlan {
  const { spec } = input;
  const image = spec.image ?? DEFAULT_DOCKER_IMAGE;
  if (typeof image !== 'string' || image.trim() === '') {
    throw new SandboxError('invalid_spec', `SandboxSpec.image: expected an image reference such as "${DEFAULT_DOCKER_IMAGE}", found ${JSON.stringify(image)}`);
  }
  const workdir = checkWorkdir(spec.workdir ?? DEFAULT_WORKDIR);
  if (spec.mountWorkspace !== undefined && spec.hostWorkspace !== undefined) {
    throw new SandboxError('invalid_spec', 'SandboxSpec: set either hostWorkspace (copied in) or mountWorkspace (mounted), not both');
  }
  if (spec.mountWorkspace !== undefined && !posix.isAbsolute(spec.mountWorkspace)) {
    throw new SandboxError('invalid_spec', `SandboxSpec.mountWorkspace: expected an absolute host path, found "${spec.mountWorkspace}"`);
  }
  const memoryMb = positiveNumber(spec.limits?.memoryMb, DEFAULT_MEMORY_MB, 'SandboxSpec.limits.memoryMb', 6);
  const defaultCpus = input.engineCpus === undefined ? DEFAULT_CPUS : Math.min(DEFAULT_CPUS, input.engineCpus);
  const cpus = positiveNumber(spec.limits?.cpus, defaultCpus, 'SandboxSpec.limits.cpus', 0.01);
  const pids = positiveNumber(spec.limits?.pids, DEFAULT_PIDS, 'SandboxSpec.limits.pids', 8);
  if (!Number.isInteger(pids)) throw new SandboxError('invalid_spec', `SandboxSpec.limits.pids: expected a whole number, found ${pids}`);
  const specRuntime = spec.runtime === undefined ? undefined : checkRuntimeName(spec.runtime);
  const runtime = input.isRuntimeDeferred === true ? undefined : specRuntime;
  if (runtime !== undefined && input.networkHolderId !== undefined) {
    // A sandbox under another runtime (gVisor) cannot join the namespace a runc holder made.
    throw new SandboxError('invalid_spec', `SandboxSpec.runtime: a sandbox under runtime "${runtime}" cannot join a network holder`);
  }
  const hostsFile = input.engineNetworklessHostsFile;
  if (hostsFile !== undefined && (spec.hasNetwork === true || input.networkHolderId !== undefined || runtime !== undefined)) {
    throw new SandboxError('invalid_spec', 'SandboxSpec: a sandbox the engine makes no network for must have no network, no holder and the default runtime');
  }
  const memoryBytes = Math.round(memoryMb * 1024 * 1024);
  const isGvisor = isGvisorRuntime(runtime);
  const hostConfig: Dockerode.HostConfig = {
    Init: true,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    PidsLimit: isGvisor ? pids * GVISOR_HOST_PIDS_PER_PROCESS + GVISOR_HOST_PIDS_BASE : pids,
    Memory: memoryBytes,
    // Equal to Memory: no swap, so the limit is a hard one.
    MemorySwap: memoryBytes,
    NanoCpus: Math.round(cpus * 1e9),
    // exec: pip and build tools run helpers from /tmp; its size counts against Memory.
    Tmpfs: { '/tmp': `rw,nosuid,nodev,exec,size=${Math.max(16, Math.floor(memoryMb / 2))}m` },
    NetworkMode: input.networkHolderId !== undefined ? `container:${input.networkHolderId}` : spec.hasNetwork === true ? SANDBOX_NETWORK : NO_NETWORK,
    Binds: [...(spec.mountWorkspace === undefined ? [] : [`${spec.mountWorkspace}:${workdir}:rw`]), ...readOnlyBinds(spec.readOnlyMounts)],
    ...(hostsFile === undefined
      ? {}
      : {
          // A mount, not a bind string: a temporary folder's path may hold a ":".
          Mounts: [{ Type: 'bind' as const, Source: hostsFile, Target: '/etc/hosts', ReadOnly: true }],
          // The engine turns IPv6 off in a `none` namespace (`set-ipv6`); runc writes this before the start.
          Sysctls: { 'net.ipv6.conf.all.disable_ipv6': '1' },
        }),
    // The main process's stdout is the executor's protocol (all command output): reaching us
    // through the attach connection, it must not also be written to the engine's log files.
    LogConfig: { Type: 'none', Config: {} },
  };
  const createOptions: Dockerode.ContainerCreateOptions = {
    name: input.name,
    Image: image,
    Entrypoint: mainProcessEntrypoint(workdir),
    Cmd: [],
    WorkingDir: workdir,
    Labels: input.labels,
    Env: [
      ...Object.entries(spec.env ?? {}).map(([key, value]) => `${key}=${value}`),
      ...(isGvisor ? [`${COMMAND_MAX_PROCESSES_VARIABLE}=${pids}`] : []),
    ],
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: true,
    StdinOnce: false,
    Tty: false,
    HostConfig: hostConfig,
  };
  if (hostsFile !== undefined) createOptions.NetworkDisabled = true;
  if (input.user !== undefined) createOptions.User = input.user;
  if (runtime !== undefined) hostConfig.Runtime = runtime;
  return { image, workdir, memoryMb, cpus, pids, runtime, createOptions };
}

/** `host:sandbox:ro` binds; a path with `:` or `,` would be split by the engine, so it is refused. */
function readOnlyBinds(mounts: SandboxSpec['readOnlyMounts']): string[] {
  return (mounts ?? []).map((mount, index) => {
    for (const [field, path] of [['hostPath', mount.hostPath], ['sandboxPath', mount.sandboxPath]] as const) {
      if (typeof path !== 'string' || !posix.isAbsolute(path) || /[:,]/.test(path)) {
        throw new SandboxError('invalid_spec', `SandboxSpec.readOnlyMounts[${index}].${field}: expected an absolute path without ":" or ",", found ${JSON.stringify(path)}`);
      }
    }
    return `${mount.hostPath}:${posix.resolve(mount.sandboxPath)}:ro`;
  });
}


function positiveNumber(value: number | undefined, fallback: number, field: string, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum) {
    throw new SandboxError('invalid_spec', `${field}: expected a number ≥ ${minimum}, found ${String(value)}`);
  }
  return value;
}
