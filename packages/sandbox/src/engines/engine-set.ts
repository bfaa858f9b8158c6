import type Dockerode from 'dockerode';
import type { EngineConfig } from '@agentbench/schemas';
import { SandboxError } from '../contract/sandbox-error.js';
import { removeManagedContainers, type ManagedContainerFilter, type RemovedContainers } from '../docker/managed-containers.js';
import { defaultEngine } from '../core/engine/default-engine.js';
import { createEngineClient } from './engine-client.js';
import { findEngineStopEvidence } from './engine-stop-evidence.js';
import { ensureImage, type EnsureImageResult, type ImageTransferProgress } from './ensure-image.js';
import { DEFAULT_PING_TIMEOUT_MS, pingEngine, type EngineHealth } from './ping-engine.js';

/** One engine of the set, with what placement needs to know now. */
export interface Engine {
  readonly name: string;
  readonly config: EngineConfig;
  readonly docker: Dockerode;
  readonly capacity: number;
  /** Attempts placed on it and not yet released. */
  readonly running: number;
  /** Set when it stopped answering; it gets no new attempts until a ping answers again. */
  readonly downReason: string | undefined;
}

/** An attempt's place on an engine; `release` frees it (idempotent). */
export interface EngineLease {
  readonly engine: Engine;
  release(): void;
}

export interface EngineSetOptions {
  /** Ping timeout for health checks. Default 5 s. */
  pingTimeoutMs?: number;
  /** How long a down engine is left alone before it is asked again. Default 10 s. */
  recheckAfterMs?: number;
}

interface EngineState {
  name: string;
  config: EngineConfig;
  docker: Dockerode;
  capacity: number;
  running: number;
  downReason: string | undefined;
  checkedAt: number;
}

/**
 * The Docker engines of a run. Each attempt is placed on the engine with the most free capacity
 * (capacity minus attempts running there; the list's order breaks ties). An engine that stops
 * answering is marked down: it gets no new attempts until a later ping answers.
 */
export class EngineSet {
  private readonly states: EngineState[];
  private readonly waiters = new Set<() => void>();
  private readonly pingTimeoutMs: number;
  private readonly recheckAfterMs: number;

  private constructor(states: EngineState[], options: EngineSetOptions) {
    this.states = states;
    this.pingTimeoutMs = options.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS;
    this.recheckAfterMs = options.recheckAfterMs ?? 10_000;
  }

  /** Builds a client per engine (TLS files are read and checked here: a bad one throws, naming it). */
  static async open(configs: readonly EngineConfig[], options: EngineSetOptions = {}): Promise<EngineSet> {
    if (configs.length === 0) throw new SandboxError('invalid_spec', 'the engines list is empty; expected at least one engine');
    const states = await Promise.all(
      configs.map(async (config) => ({ name: config.name, config, docker: await createEngineClient(config), capacity: config.capacity, running: 0, downReason: undefined, checkedAt: 0 })),
    );
    return new EngineSet(states, options);
  }

  get engines(): readonly Engine[] {
    return this.states.map((state) => ({ ...state }));
  }

  /** Sum of the capacities: the most attempts that can run at once. */
  get totalCapacity(): number {
    return this.states.reduce((sum, state) => sum + state.capacity, 0);
  }

  engine(name: string): Engine {
    return { ...this.state(name) };
  }

  /** The up engine with the most free capacity, or undefined when every up engine is full (or none is up). */
  place(): Engine | undefined {
    let best: EngineState | undefined;
    for (const state of this.states) {
      if (state.downReason !== undefined || state.running >= state.capacity) continue;
      if (best === undefined || state.capacity - state.running > best.capacity - best.running) best = state;
    }
    return best === undefined ? undefined : { ...best };
  }

  /**
   * Waits for a free place and takes it. Rejects with `engine_unavailable` when no engine answers
   * (each down one is asked again first), and with the signal's reason when it is aborted.
   */
  async acquire(signal?: AbortSignal): Promise<EngineLease> {
    for (;;) {
      signal?.throwIfAborted();
      this.recheckDownEngines();
      const placed = this.place();
      if (placed !== undefined) return this.lease(this.state(placed.name));
      if (this.states.every((state) => state.downReason !== undefined)) {
        await this.checkAll();
        if (this.states.every((state) => state.downReason !== undefined)) throw this.noEngineError();
        continue;
      }
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        // Wake now and then to ask down engines again, even when nothing is released.
        const timer = setTimeout(wake, this.recheckAfterMs);
        this.waiters.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }

  /** Marks an engine down: no new attempts go to it until it answers a ping. */
  markDown(name: string, reason: string): void {
    const state = this.state(name);
    state.downReason = reason;
    state.checkedAt = Date.now();
  }

  /** Pings one engine and records the answer (up again, or down with the reason). */
  async checkHealth(name: string): Promise<EngineHealth> {
    const state = this.state(name);
    const health = await pingEngine(state.docker, this.pingTimeoutMs);
    state.checkedAt = Date.now();
    const wasDown = state.downReason !== undefined;
    state.downReason = health.isUp ? undefined : health.message;
    if (wasDown && health.isUp) this.wakeWaiters();
    return health;
  }

  /** What points at the engine shutting down since `since` (see findEngineStopEvidence), or undefined. */
  async stopEvidence(name: string, since: Date): Promise<string | undefined> {
    return findEngineStopEvidence(this.state(name).docker, { since, timeoutMs: this.pingTimeoutMs });
  }

  async checkAll(): Promise<Map<string, EngineHealth>> {
    const answers = await Promise.all(this.states.map(async (state) => [state.name, await this.checkHealth(state.name)] as const));
    return new Map(answers);
  }

  /**
   * Makes sure every up engine has `image`, sending it from `source` (default: the local engine, DOCKER_HOST
   * or /var/run/docker.sock) where missing; one engine at a time, since the host's disk and network are shared.
   */
  async ensureImage(
    image: string,
    options: { source?: Dockerode; onProgress?: (engine: string, progress: ImageTransferProgress) => void } = {},
  ): Promise<Map<string, EnsureImageResult>> {
    const source = options.source ?? defaultEngine();
    const results = new Map<string, EnsureImageResult>();
    for (const state of this.states) {
      if (state.downReason !== undefined) continue;
      const progress = options.onProgress;
      results.set(
        state.name,
        await ensureImage(state.docker, image, { source, targetName: state.name, ...(progress === undefined ? {} : { onProgress: (value: ImageTransferProgress) => progress(state.name, value) }) }),
      );
    }
    return results;
  }

  /** Removes the managed containers matching `filter` on every engine; an engine that does not answer is reported, not thrown. */
  async removeManagedContainers(filter: ManagedContainerFilter = {}): Promise<Map<string, RemovedContainers | { error: string }>> {
    const results = await Promise.all(
      this.states.map(async (state): Promise<[string, RemovedContainers | { error: string }]> => {
        try {
          return [state.name, await removeManagedContainers(filter, { docker: state.docker })];
        } catch (error) {
          return [state.name, { error: (error as Error).message }];
        }
      }),
    );
    return new Map(results);
  }

  private state(name: string): EngineState {
    const state = this.states.find((candidate) => candidate.name === name);
    if (state === undefined) {
      throw new SandboxError('invalid_spec', `no engine named '${name}'; the engines are ${this.states.map((candidate) => candidate.name).join(', ')}`, { subject: name });
    }
    return state;
  }

  private lease(state: EngineState): EngineLease {
    state.running += 1;
    let isReleased = false;
    return {
      engine: { ...state },
      release: () => {
        if (isReleased) return;
        isReleased = true;
        state.running -= 1;
        this.wakeWaiters();
      },
    };
  }

  private wakeWaiters(): void {
    for (const wake of [...this.waiters]) wake();
  }

  private recheckDownEngines(): void {
    const now = Date.now();
    for (const state of this.states) {
      if (state.downReason === undefined || now - state.checkedAt < this.recheckAfterMs) continue;
      state.checkedAt = now;
      void this.checkHealth(state.name);
    }
  }

  private noEngineError(): SandboxError {
    const reasons = this.states.map((state) => `${state.name} (${state.config.host}): ${state.downReason ?? 'down'}`).join('; ');
    return new SandboxError('engine_unavailable', `no Docker engine of the engines list answers: ${reasons}`);
  }
}
