import { readContainerCpuSeconds, type Sandbox, type SandboxSnapshot } from '@agentbench/sandbox';
import type { SandboxFactory } from './sandbox-factory.js';

/**
 * The CPU seconds of the Docker sandboxes made through its factories (`wrap`), the verdict's that
 * starts from an attempt's snapshot included: each container's cgroup is read just before the
 * sandbox is disposed (the cgroup goes with the container). One meter per run, so two runs of one
 * process never count each other's containers. Only the host's cgroup files are read, never the
 * engine (a dispose must not wait on a stats call): a container on a remote engine, or a sandbox of
 * another backend, adds nothing (`unread` counts the Docker ones that could not be read). The
 * kernel writes these files, so a sandbox cannot forge its figure.
 */
export class SandboxCpuMeter {
  private seconds = 0;
  private unreadCount = 0;
  private readonly readCpuSeconds: (containerId: string) => Promise<number | undefined>;

  /** `readCpuSeconds`: how a container's CPU seconds are read (tests); default its cgroup files, never the engine. */
  constructor(options: { readCpuSeconds?: (containerId: string) => Promise<number | undefined> } = {}) {
    this.readCpuSeconds = options.readCpuSeconds ?? ((containerId) => readContainerCpuSeconds(containerId, { isEngineAsked: false }));
  }

  /** CPU seconds of the metered sandboxes disposed so far. */
  get cpuSeconds(): number {
    return this.seconds;
  }

  /** Docker sandboxes disposed whose cgroup could not be read (not in `cpuSeconds`). */
  get unread(): number {
    return this.unreadCount;
  }

  /** `factory`'s sandboxes, each adding its CPU seconds to the meter once, when it is disposed. */
  wrap(factory: SandboxFactory): SandboxFactory {
    return async (spec) => this.metered(await factory(spec));
  }

  private metered(sandbox: Sandbox): Sandbox {
    let isRead = false;
    const dispose = async (): Promise<void> => {
      if (!isRead && sandbox.backend === 'docker') {
        isRead = true;
        const seconds = await this.readCpuSeconds(sandbox.id).catch(() => undefined);
        if (seconds === undefined) this.unreadCount += 1;
        else this.seconds += seconds;
      }
      await sandbox.dispose();
    };
    const snapshot = async (): Promise<SandboxSnapshot | undefined> => {
      const taken = await sandbox.snapshot?.();
      if (taken === undefined) return undefined;
      return { image: taken.image, dispose: () => taken.dispose(), createSandbox: async (spec) => this.metered(await taken.createSandbox(spec)) };
    };
    return new Proxy(sandbox, {
      get: (target, property) => {
        if (property === 'dispose' || property === Symbol.asyncDispose) return dispose;
        if (property === 'snapshot') return target.snapshot === undefined ? undefined : snapshot;
        // Methods run on the sandbox itself (its private fields are not the proxy's).
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}
