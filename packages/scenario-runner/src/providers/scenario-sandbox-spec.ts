import type { SandboxSpec } from '@agentbench/sandbox';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import type { EnvironmentProviderContext } from './environment-provider.js';

/** Labels that let `ab doctor` / `ab cleanup` tell a scenario's sandbox apart. */
export function scenarioSandboxLabels(context: EnvironmentProviderContext): Record<string, string> {
  return { runId: context.runId, taskId: `scenario:${context.scenarioName}`.slice(0, 63) };
}

/**
 * The sandbox a scenario's `environment` asks for: `image`, `workdir` and `runtime` when given, network
 * only with `network: bridge`, the run's variables and labels. Backends ignore what they do not use
 * (local: image, runtime).
 */
export function scenarioSandboxSpec(context: EnvironmentProviderContext): SandboxSpec {
  const { environment } = context;
  if (environment.runtime !== undefined && environment.network === 'bridge') {
    // A scenario never cuts its network, so a network-less runtime (runsc) would never take over: the
    // whole run would be under runc, less isolated than asked. Refused rather than quietly weaker.
    throw new ScenarioRunnerError(
      'configuration',
      `environment.runtime "${environment.runtime}" with network: bridge: a scenario under a container runtime runs without network (the runsc of scripts/setup.sh --with-gvisor has none); drop network: bridge, or the runtime`,
    );
  }
  return {
    ...(environment.image === undefined ? {} : { image: environment.image }),
    ...(environment.workdir === undefined ? {} : { workdir: environment.workdir }),
    ...(environment.runtime === undefined ? {} : { runtime: environment.runtime }),
    hasNetwork: environment.network === 'bridge',
    env: context.env,
    labels: scenarioSandboxLabels(context),
  };
}
