import type { SandboxSpec } from '@agentbench/sandbox';
import type { EnvironmentProviderContext } from './environment-provider.js';

/** Labels that let `ab doctor` / `ab cleanup` tell a scenario's sandbox apart. */
export function scenarioSandboxLabels(context: EnvironmentProviderContext): Record<string, string> {
  return { runId: context.runId, taskId: `scenario:${context.scenarioName}`.slice(0, 63) };
}

/**
 * The sandbox a scenario's `environment` asks for: `image` and `workdir` when given, network only with
 * `network: bridge`, the run's variables and labels. Backends ignore what they do not use (local: image).
 */
export function scenarioSandboxSpec(context: EnvironmentProviderContext): SandboxSpec {
  const { environment } = context;
  return {
    ...(environment.image === undefined ? {} : { image: environment.image }),
    ...(environment.workdir === undefined ? {} : { workdir: environment.workdir }),
    hasNetwork: environment.network === 'bridge',
    env: context.env,
    labels: scenarioSandboxLabels(context),
  };
}
