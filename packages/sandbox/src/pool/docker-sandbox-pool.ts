import type Dockerode from 'dockerode';
import { DEFAULT_MEMORY_MB } from '../docker/container-config.js';
import { defaultEngine } from '../core/engine/default-engine.js';
import { describeEngine } from '../docker/docker-errors.js';
import { DockerSandbox, type DockerSandboxOptions } from '../docker/docker-sandbox.js';
import type { NetworkHolderPool } from '../docker/network-holder-pool.js';
import type { SandboxSpec } from '../contract/sandbox.js';
import { HostIdleCapacity } from './idle-capacity.js';
import { MountSlot } from './mount-slot.js';
import { poolKeyOf, type PoolKey } from './pool-key.js';
import { SandboxPool, type SandboxPoolOptions } from './sandbox-pool.js';
import type { PoolKeyDecision, WarmSandboxSource } from './warm-sandbox-source.js';

export interface DockerSandboxPoolOptions extends SandboxPoolOptions {
  /** Engine client; default: one shared per process (DOCKER_HOST or /var/run/docker.sock). */
  docker?: Dockerode;
  /** How long a sandbox's executor may take to say it is ready. Default 30 s. */
  executorReadyTimeoutMs?: number;
  /**
   * Folder for the empty workspaces warm sandboxes mount, so specs with `mountWorkspace` (the
   * harness's) can be served warm (see MountSlot). Must be on the file system of those workspaces.
   * Default: none, and such specs are created cold.
   */
  mountSlotsDir?: string;
  /** Network holders a cold-created sandbox joins (the fallback's faster start). Same engine. */
  networkHolders?: NetworkHolderPool;
}

/** A warm Docker sandbox and, when it mounts its workspace, the slot it mounts. */
export interface WarmDockerSandbox {
  sandbox: DockerSandbox;
  slot?: MountSlot;
}

/** Docker sandboxes kept warm; see SandboxPool. `take` gives a DockerSandbox. */
export type DockerSandboxPool = SandboxPool<WarmDockerSandbox, DockerSandbox>;

/**
 * A pool of started Docker sandboxes (executor ready) handed out in tens of milliseconds. It warms
 * in the background only while no task waits for the host's CPU (`HostIdleCapacity` unless `idleCapacity` says otherwise).
 */
export function createDockerSandboxPool(options: DockerSandboxPoolOptions = {}): DockerSandboxPool {
  return new SandboxPool(new DockerWarmSource(options), { ...options, idleCapacity: options.idleCapacity ?? new HostIdleCapacity() });
}

/** Starts, hands out and removes warm Docker sandboxes for a SandboxPool. */
export class DockerWarmSource implements WarmSandboxSource<WarmDockerSandbox, DockerSandbox> {
  readonly description: string;
  private readonly docker: Dockerode;
  private readonly sandboxOptions: DockerSandboxOptions;
  private readonly mountSlotsDir: string | undefined;
  private readonly networkHolders: NetworkHolderPool | undefined;

  constructor(options: DockerSandboxPoolOptions = {}) {
    this.docker = options.docker ?? options.networkHolders?.engine ?? defaultEngine();
    this.description = `the Docker engine at ${describeEngine(this.docker)}`;
    this.sandboxOptions = { docker: this.docker };
    if (options.onDebug !== undefined) this.sandboxOptions.onDebug = options.onDebug;
    if (options.executorReadyTimeoutMs !== undefined) this.sandboxOptions.executorReadyTimeoutMs = options.executorReadyTimeoutMs;
    this.mountSlotsDir = options.mountSlotsDir;
    this.networkHolders = options.networkHolders;
  }

  async keyOf(spec: SandboxSpec): Promise<PoolKeyDecision> {
    if (spec.mountWorkspace === undefined) return { isPoolable: true, key: poolKeyOf(spec) };
    if (this.mountSlotsDir === undefined) return { isPoolable: false, reason: 'the spec mounts its workspace and the pool has no mountSlotsDir' };
    const reason = await MountSlot.whyNotFor(spec.mountWorkspace, this.mountSlotsDir);
    if (reason !== undefined) return { isPoolable: false, reason };
    return { isPoolable: true, key: poolKeyOf(spec, { mountsWorkspace: true }) };
  }

  /** The memory limit: what a warm sandbox may grow to, so the bound holds whatever runs later. */
  memoryBytes(key: PoolKey): number {
    return Math.round((key.warmSpec.limits?.memoryMb ?? DEFAULT_MEMORY_MB) * 1024 * 1024);
  }

  async startWarm(key: PoolKey, labels: Record<string, string>): Promise<WarmDockerSandbox> {
    const slot = key.extra['mountsWorkspace'] === true && this.mountSlotsDir !== undefined ? await MountSlot.create(this.mountSlotsDir) : undefined;
    try {
      const spec: SandboxSpec = { ...key.warmSpec, labels };
      if (slot !== undefined) spec.mountWorkspace = slot.folder;
      const sandbox = await DockerSandbox.createWarm(spec, this.sandboxOptions);
      return slot === undefined ? { sandbox } : { sandbox, slot };
    } catch (error) {
      await slot?.remove().catch(() => undefined);
      throw error;
    }
  }

  async claim(warm: WarmDockerSandbox, spec: SandboxSpec): Promise<DockerSandbox> {
    if (warm.slot !== undefined && spec.mountWorkspace !== undefined) await warm.slot.takePlaceOf(spec.mountWorkspace);
    const { mountWorkspace: _mounted, ...handOut } = spec;
    await warm.sandbox.claim(handOut);
    return warm.sandbox;
  }

  createCold(spec: SandboxSpec): Promise<DockerSandbox> {
    return DockerSandbox.create(spec, this.networkHolders === undefined ? this.sandboxOptions : { ...this.sandboxOptions, networkHolders: this.networkHolders });
  }

  async disposeWarm(warm: WarmDockerSandbox): Promise<void> {
    await warm.sandbox.dispose();
    await warm.slot?.remove();
  }
}
