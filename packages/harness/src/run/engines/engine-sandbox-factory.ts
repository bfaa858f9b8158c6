import type { EngineLease, EngineSet } from '@agentbench/sandbox';
import { sandboxFactoryFor, type SandboxFactory } from '../../plan/sandbox-factory.js';

/** One attempt's place: the engine's name (for its record), its sandboxes, and `release` once the attempt ended. */
export interface EnginePlacement {
  engine: string;
  createSandbox: SandboxFactory;
  release(): void;
}

/** Places attempts on the engine set: each `place` waits for the engine with the most free capacity and gives a factory for its sandboxes. */
export interface EngineSandboxFactory {
  place(signal?: AbortSignal): Promise<EnginePlacement>;
}

export function engineSandboxFactory(engineSet: EngineSet): EngineSandboxFactory {
  // One factory per engine: its dockerode client, so an engine's CPU count is asked once.
  const factories = new Map<string, SandboxFactory>();
  const factoryOf = (lease: EngineLease): SandboxFactory => {
    let factory = factories.get(lease.engine.name);
    if (factory === undefined) {
      factory = sandboxFactoryFor('docker', { backendOptions: { docker: lease.engine.docker } });
      factories.set(lease.engine.name, factory);
    }
    return factory;
  };
  return {
    place: async (signal) => {
      const lease = await engineSet.acquire(signal);
      return { engine: lease.engine.name, createSandbox: factoryOf(lease), release: () => lease.release() };
    },
  };
}
