import type Dockerode from 'dockerode';
import { ulid } from 'ulid';
import { NO_NETWORK } from './container-config.js';
import { defaultEngine } from '../core/engine/default-engine.js';
import { toSandboxError } from './docker-errors.js';
import { engineEndpoint, type EngineEndpoint } from './engine-endpoint.js';
import { buildContainerLabels } from '../core/engine/labels.js';
import { removeContainer } from './remove-container.js';
import { trackSandbox, untrackSandbox, type ExitCleanup, type LiveSandbox } from '../core/live-sandboxes.js';
import { containerExitCleanup } from './remove-at-exit.js';

/** Label value (`dev.agentbench.role`) of a network holder. */
export const NETWORK_HOLDER_ROLE = 'network-holder';

/**
 * A started, idle container that owns a network namespace (on `none`) for one sandbox
 * to join, like a Kubernetes pod's pause container. The sandbox's network is switched on
 * and off by connecting the holder.
 */
export class NetworkHolder implements LiveSandbox {
  private removal: Promise<void> | undefined;

  constructor(
    private readonly docker: Dockerode,
    readonly containerId: string,
    readonly containerName: string,
    readonly endpoint: EngineEndpoint,
  ) {}

  /** The live-sandbox tracker's last cleanup: the container removed from a fresh process. */
  exitCleanup(): ExitCleanup {
    return containerExitCleanup({ id: this.containerId, ...this.endpoint });
  }

  /** Removes the holder container; idempotent. */
  dispose(): Promise<void> {
    if (this.removal !== undefined) return this.removal;
    const removal = removeContainer(this.docker, this.containerId, `the network holder ${this.containerName}`).then(
      () => untrackSandbox(this),
      (error: unknown) => {
        // Let a later dispose() (or the exit hook, which still knows it) try again.
        this.removal = undefined;
        throw error;
      },
    );
    this.removal = removal;
    return removal;
  }
}

export interface NetworkHolderPoolOptions {
  /** Engine client; default: one shared per process (DOCKER_HOST or /var/run/docker.sock). */
  docker?: Dockerode;
  /** Started holders kept ready per image. Default 1. */
  spares?: number;
  /** Labels of the holders, spelled as in SandboxSpec.labels (e.g. `{ runId }`, so a run's cleanup finds them). */
  labels?: Record<string, string>;
}

/**
 * Started network holders, ready for `DockerSandbox.create` to join. Starting a container
 * with its own network namespace costs the engine ~200 ms more than joining an existing
 * one (libnetwork makes and configures the namespace on the start path); the pool pays it
 * in the background, between sandboxes. `take` never waits: with no holder ready the
 * sandbox makes its own namespace (the cold path) and the pool refills. The owner calls
 * `dispose()` to remove the spares; the process exit hook removes what is left.
 */
export class NetworkHolderPool {
  private readonly docker: Dockerode;
  private readonly spares: number;
  private readonly labels: Record<string, string>;
  private readonly ready = new Map<string, NetworkHolder[]>();
  private readonly starting = new Map<string, Set<Promise<void>>>();
  /** Images whose holder failed to start: not tried again (the cold path reports the real error). */
  private readonly failedImages = new Map<string, Error>();
  private isDisposed = false;

  constructor(options: NetworkHolderPoolOptions = {}) {
    this.docker = options.docker ?? defaultEngine();
    this.spares = options.spares ?? 1;
    if (!Number.isInteger(this.spares) || this.spares < 0) {
      throw new RangeError(`NetworkHolderPool: spares must be a whole number ≥ 0, found ${String(options.spares)}`);
    }
    this.labels = options.labels ?? {};
  }

  /** The engine the holders live on: a sandbox joining one must use the same. */
  get engine(): Dockerode {
    return this.docker;
  }

  /** Number of started holders ready for `image`. */
  readyCount(image: string): number {
    return this.ready.get(image)?.length ?? 0;
  }

  /** Why holders for `image` are no longer made, if they are not. */
  failure(image: string): Error | undefined {
    return this.failedImages.get(image);
  }

  /** A ready holder for `image` (now the caller's to dispose), or undefined; refills in the background either way. */
  take(image: string): NetworkHolder | undefined {
    const holder = this.ready.get(image)?.shift();
    this.refill(image);
    return holder;
  }

  /** Starts filling the pool for `image`; settles when the holders under way are ready (never rejects). */
  async warm(image: string): Promise<void> {
    this.refill(image);
    await Promise.allSettled([...(this.starting.get(image) ?? [])]);
  }

  /** Removes the spare holders and stops refilling. Holders already taken belong to their sandboxes. */
  async dispose(): Promise<void> {
    this.isDisposed = true;
    await Promise.allSettled([...this.starting.values()].flatMap((set) => [...set]));
    const spares = [...this.ready.values()].flat();
    this.ready.clear();
    await Promise.allSettled(spares.map((holder) => holder.dispose()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  private refill(image: string): void {
    if (this.isDisposed || this.failedImages.has(image)) return;
    const starting = this.starting.get(image) ?? new Set<Promise<void>>();
    this.starting.set(image, starting);
    while (this.readyCount(image) + starting.size < this.spares) {
      const start: Promise<void> = this.startHolder(image)
        .then(
          async (holder) => {
            // Disposed meanwhile: nobody will take it.
            if (this.isDisposed) return holder.dispose();
            this.ready.set(image, [...(this.ready.get(image) ?? []), holder]);
          },
          (error: unknown) => {
            this.failedImages.set(image, error as Error);
          },
        )
        .catch(() => undefined)
        .finally(() => starting.delete(start));
      starting.add(start);
    }
  }

  private async startHolder(image: string): Promise<NetworkHolder> {
    const name = `agentbench-net-${ulid().toLowerCase()}`;
    const container = await this.docker.createContainer({
      name,
      Image: image,
      Entrypoint: ['sleep'],
      Cmd: ['infinity'],
      Labels: buildContainerLabels({ ...this.labels, role: NETWORK_HOLDER_ROLE }),
      HostConfig: {
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        ReadonlyRootfs: true,
        PidsLimit: 8,
        Memory: 32 * 1024 * 1024,
        MemorySwap: 32 * 1024 * 1024,
        NetworkMode: NO_NETWORK,
      },
    });
    const holder = new NetworkHolder(this.docker, container.id, name, await engineEndpoint(this.docker));
    trackSandbox(holder);
    try {
      await container.start();
    } catch (error) {
      await holder.dispose().catch(() => undefined);
      throw toSandboxError(this.docker, error, { action: `start a network holder from ${image}` });
    }
    return holder;
  }
}
