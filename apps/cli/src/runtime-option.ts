import { GVISOR_RUNTIME, RUNTIME_NAME_PATTERN } from '@agentbench/sandbox';
import { UsageError } from './usage-error.js';

/**
 * `--runtime NAME`, on the commands that run attempts (run-task, run-agent, validate-suite,
 * bench-models): the OCI runtime of every Docker sandbox, over the task's `environment.runtime`.
 */
export function runtimeOption() {
  return {
    type: 'string' as const,
    describe: `OCI runtime of every Docker sandbox, over each task's environment.runtime: "${GVISOR_RUNTIME}" runs the agent and the tests under gVisor (setup runs under runc, with network, then moves to it; install it with scripts/setup.sh --with-gvisor). Default: the task's, else the engine's default (runc)`,
  };
}

/** The checked `--runtime` value; a runtime only means something to the docker backend. */
export function runtimeArgument(runtime: string | undefined, backend = 'docker'): string | undefined {
  if (runtime === undefined) return undefined;
  if (!RUNTIME_NAME_PATTERN.test(runtime)) {
    throw new UsageError(`--runtime: expected a container runtime name registered with the Docker engine, such as "${GVISOR_RUNTIME}" or "runc", found ${JSON.stringify(runtime)}`);
  }
  if (backend !== 'docker') throw new UsageError(`--runtime ${runtime}: a container runtime applies to the docker backend only, not --backend ${backend}`);
  return runtime;
}
