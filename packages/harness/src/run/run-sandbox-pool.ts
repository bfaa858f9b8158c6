import { rm } from 'node:fs/promises';
import { totalmem } from 'node:os';
import path from 'node:path';
import { createSandboxPool, type createDockerSandboxPool, type NetworkHolderPool, type SandboxPoolStats, type SandboxSpec } from '@agentbench/sandbox';
import { ConfigurationError } from '@agentbench/schemas';
import { pooledSandboxFactory, type SandboxFactory } from '../plan/sandbox-factory.js';
import { removeRunLeftovers } from './remove-run-leftovers.js';

/** Whether the host has CPU to spare for a warm start (the Docker pool's `idleCapacity`). */
export type PoolIdleCapacity = NonNullable<NonNullable<Parameters<typeof createDockerSandboxPool>[0]>['idleCapacity']>;

/** The run folder's subfolder of empty workspaces warm sandboxes mount (see MountSlot): inside the run, so on its workspaces' file system. */
export const SANDBOX_POOL_FOLDER = '.sandbox-pool';

export interface RunSandboxPoolOptions {
  runDir: string;
  /** On the warm sandboxes' labels, so `ab cleanup --run-id` and `ab doctor` find them. */
  runId: string;
  /** Warm sandboxes kept at most over all keys; 0 keeps none (every sandbox is created cold). */
  size: number;
  /** Takes still to come (the run's attempts to start): no sandbox is warmed beyond them (the pool's `expectTakes`). Default: no bound. */
  expectedTakes?: number;
  /**
   * The specs of the run's first takes, in the order the attempts start (their task's part of the
   * spec, `taskSandboxSpec`): warmed at once, before any attempt asks (the pool's `warmAhead`).
   */
  firstTakes?: readonly SandboxSpec[];
  /** Network holders the pool's cold creates join. */
  networkHolders?: NetworkHolderPool;
  /** Debug notes of the pool (a take served cold, and why). */
  onDebug?: (message: string) => void;
  /**
   * When a take's refill starts (the pool's `refillAfter`). Default `'release'`: an agent attempt
   * releases its sandbox before its verdict, so the refill overlaps the attempt's tail. A run whose
   * attempts release only at their very end (a suite's baselines) passes `'take'`: refilled at the
   * release, the next task's take would always wait for the create.
   */
  refillAfter?: 'take' | 'release';
  /** When the pool may warm in the background. Default: while the host has idle CPU (HostIdleCapacity); a test of warm takes on a busy machine gives a host that is always idle. */
  idleCapacity?: PoolIdleCapacity;
}

/** The warm Docker sandboxes of one run (a suite, an `ab run`): its attempts' factory, what it handed out, and its end. */
export interface RunSandboxPool {
  /** Takes from the pool: warm when one is ready for the spec, else created cold. */
  readonly createSandbox: SandboxFactory;
  stats(): SandboxPoolStats;
  /** Warm sandboxes kept at most from now on: a smaller size removes the surplus at once (the pool's `setSize`). */
  setSize(size: number): void;
  /** Removes the warm sandboxes (and any of the pool's this process still finds) and the mount slots; never throws (a removal that fails is left to `ab cleanup`). */
  dispose(): Promise<void>;
}

/**
 * A pool of warm sandboxes for the attempts of a run on the local Docker engine. The attempts mount
 * their workspaces (`<runDir>/workspace/...`), so the pool's mount slots live in the run folder too
 * (`.sandbox-pool`, same file system, removed at the end). Bounded by `size` and by the host's memory
 * (each warm sandbox counted at its memory limit).
 */
export async function startRunSandboxPool(options: RunSandboxPoolOptions): Promise<RunSandboxPool> {
  if (!Number.isInteger(options.size) || options.size < 0) {
    throw new ConfigurationError('sandboxPoolSize', `expected a whole number of warm sandboxes ≥ 0, found ${String(options.size)}`);
  }
  const mountSlotsDir = path.join(options.runDir, SANDBOX_POOL_FOLDER);
  // A run killed before its end left its slots: empty folders of ours.
  await rm(mountSlotsDir, { recursive: true, force: true });
  // Through the backend registry, as every sandbox of the run: the pool is the docker backend's.
  const pool = await createSandboxPool('docker', {
    size: options.size,
    maxMemoryBytes: totalmem(),
    labels: { runId: options.runId, taskId: 'sandbox-pool' },
    mountSlotsDir,
    // The next take comes when an attempt ends: refill as one ends (its sandbox released), not while it sets up.
    refillAfter: options.refillAfter ?? 'release',
    ...(options.networkHolders === undefined ? {} : { networkHolders: options.networkHolders }),
    ...(options.onDebug === undefined ? {} : { onDebug: options.onDebug }),
    ...(options.idleCapacity === undefined ? {} : { idleCapacity: options.idleCapacity }),
  });
  if (options.expectedTakes !== undefined) pool.expectTakes(options.expectedTakes);
  // Keyed as the attempts' specs will be: their workspaces mount folders of the run folder, which exists now.
  await pool.warmAhead((options.firstTakes ?? []).map((spec) => ({ ...spec, mountWorkspace: options.runDir })));
  return {
    createSandbox: pooledSandboxFactory(pool),
    stats: () => pool.stats(),
    setSize: (size) => pool.setSize(size),
    dispose: async () => {
      await pool.dispose().catch(() => undefined);
      // A warm sandbox whose removal the engine refused, or whose start outlived the dispose.
      await removeRunLeftovers({ poolId: pool.id });
      await rm(mountSlotsDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
