import type { EngineSet } from '@agentbench/sandbox';
import type { AutoConcurrency } from '@agentbench/scheduler';
import { createDockerSandbox, withRuntime, type SandboxFactory } from '../plan/sandbox-factory.js';
import type { RunSandboxPool } from './run-sandbox-pool.js';

/**
 * Where a run's sandboxes come from, as a plan tells the driver. Each try takes its factory from
 * the first that applies: its engine (an engines list places every try), the caller's factory, the
 * run's warm pool, else hardened Docker containers on the local engine; under the run's runtime.
 */
export interface RunSandboxes {
  /** Docker engines to place each try on (prepareRunEngines, before the run folder exists). */
  engines?: EngineSet;
  /** The caller's factory (tests, embedders, a plugin backend): it makes every sandbox. Not with `engines`. */
  createSandbox?: SandboxFactory;
  /** The OCI runtime of every sandbox (`--runtime`); wins over each task's. */
  runtime?: string;
  /** How long an engine showing signs of shutting down is watched after a failed try (judgeEngineLoss). Default 30 s. */
  dyingEngineGraceMs?: number;
}

/** The factory of a try (or of the run, without `engineFactory`): see RunSandboxes. */
export function runSandboxFactory(sandboxes: RunSandboxes, pool: RunSandboxPool | undefined, engineFactory?: SandboxFactory): SandboxFactory {
  return withRuntime(engineFactory ?? sandboxes.createSandbox ?? pool?.createSandbox ?? createDockerSandbox, sandboxes.runtime);
}

/**
 * `-j auto`'s view of an attempt's sandboxes: each create's latency is a sample, and the attempt's
 * first successful create is what lets one more attempt in (its verdict's and its retries' are samples only).
 */
export function timedForAuto(auto: AutoConcurrency | undefined): (factory: SandboxFactory) => SandboxFactory {
  if (auto === undefined) return (factory) => factory;
  let hasStarted = false;
  return (factory) => async (spec) => {
    const started = performance.now();
    try {
      const sandbox = await factory(spec);
      auto.createFinished(performance.now() - started, true, { isItemStart: !hasStarted });
      hasStarted = true;
      return sandbox;
    } catch (error) {
      auto.createFinished(performance.now() - started, false);
      throw error;
    }
  };
}
