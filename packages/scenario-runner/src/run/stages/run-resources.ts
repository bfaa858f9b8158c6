import type { ModelProxy } from '@agentbench/cassette';
import type { AgentUnderTest } from '../../agents/agent-under-test.js';
import { IsolatedScriptRunner } from '../../mocks/isolated-script-runner.js';
import type { EnvironmentProvider } from '../../providers/environment-provider.js';
import { ServiceRegistry } from '../../services/service-registry.js';
import type { ServicesEndpoint } from '../../services/services-endpoint.js';

/** Everything a run holds, released in `release` (each failure recorded, none stopping the others). */
export class RunResources {
  provider: EnvironmentProvider | undefined;
  endpoint: ServicesEndpoint | undefined;
  agent: AgentUnderTest | undefined;
  /** The run's model proxy: every model exchange of the agent, the simulator and the judge goes through it to `cassette.jsonl`. */
  modelProxy: ModelProxy | undefined;
  readonly services = new ServiceRegistry();
  readonly scripts: IsolatedScriptRunner;

  constructor(scriptTimeoutMs: number | undefined) {
    this.scripts = new IsolatedScriptRunner(scriptTimeoutMs === undefined ? {} : { timeoutMs: scriptTimeoutMs });
  }

  async release(onError: (stage: string, error: unknown) => void): Promise<void> {
    const attempt = async (stage: string, action: (() => Promise<unknown>) | undefined): Promise<void> => {
      if (action === undefined) return;
      try {
        await action();
      } catch (error) {
        onError(stage, error);
      }
    };
    await attempt('teardown.agent', this.agent?.dispose === undefined ? undefined : () => this.agent!.dispose!());
    await attempt('teardown.model_proxy', this.modelProxy === undefined ? undefined : () => this.modelProxy!.close());
    await attempt('teardown.endpoint', this.endpoint === undefined ? undefined : () => this.endpoint!.close());
    await attempt('teardown.provider', this.provider === undefined ? undefined : () => this.provider!.teardown());
    await attempt('teardown.services', () => this.services.dispose());
    await attempt('teardown.scripts', () => this.scripts.close());
  }
}
