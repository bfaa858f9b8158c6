import path from 'node:path';
import type { ModelProxy } from '@agentbench/cassette';
import type { AgentSpec, AgentUnderTest } from '../../agents/agent-under-test.js';
import { CommandAgentUnderTest } from '../../agents/command-agent.js';
import { HttpAgentUnderTest } from '../../agents/http-agent.js';
import { LlmAgentUnderTest } from '../../agents/llm-agent.js';
import { ScenarioRunnerError } from '../../errors/scenario-runner-error.js';
import type { LlmSettings } from '../../llm/llm-settings.js';
import type { UsageMeter } from '../../llm/usage-meter.js';
import type { ServiceGateway } from '../../services/service-gateway.js';
import { SERVICES_URL_VARIABLE, type ServicesEndpoint } from '../../services/services-endpoint.js';
import type { TrajectoryRecorder } from '../../trajectory/trajectory-recorder.js';
import type { ScenarioRunResult } from '../scenario-result.js';
import { createRoleClient } from './role-client.js';
import { stepKind } from './steps/step-kind.js';
import type { ScenarioRun } from './scenario-run.js';

/** The agent, made when a step talks to one (a run of code steps only has none). */
export function agentStage(run: ScenarioRun, endpoint: ServicesEndpoint): void {
  if (!run.definition.run.some((step) => stepKind(step) !== 'code')) return;
  run.resources.agent = createAgent(run.agentChoice.spec, {
    gateway: run.gateway,
    trajectory: run.trajectory,
    meter: run.meter,
    llm: run.llmSettings,
    env: run.env,
    runEnv: {
      ...(run.options.env ?? {}),
      [SERVICES_URL_VARIABLE]: endpoint.url,
      // A command agent in any language is recorded when it reads OPENAI_BASE_URL.
      ...(run.resources.modelProxy === undefined ? {} : { OPENAI_BASE_URL: run.resources.modelProxy.baseUrlFor('agent') }),
    },
    cwd: run.loaded.dir,
    models: run.models,
    modelProxy: run.resources.modelProxy,
  });
}

interface AgentDependencies {
  gateway: ServiceGateway;
  trajectory: TrajectoryRecorder;
  meter: UsageMeter;
  llm: LlmSettings;
  env: Readonly<Record<string, string | undefined>>;
  /** Variables the command agent gets on top of the process environment. */
  runEnv: Record<string, string>;
  cwd: string;
  models: ScenarioRunResult['parameters']['models'];
  modelProxy: ModelProxy | undefined;
}

function createAgent(spec: AgentSpec, dependencies: AgentDependencies): AgentUnderTest {
  const { gateway, trajectory, meter, llm, env, models } = dependencies;
  switch (spec.type) {
    case 'llm': {
      const settings: LlmSettings = { ...llm, agent: { ...llm.agent, ...(spec.model === undefined ? {} : { model: spec.model }), ...(spec.base_url === undefined ? {} : { baseURL: spec.base_url }) } };
      return new LlmAgentUnderTest({
        client: createRoleClient('agent', settings, env, undefined, models, undefined, dependencies.modelProxy),
        gateway,
        trajectory,
        usage: meter,
        ...(spec.system_prompt === undefined ? {} : { systemPrompt: spec.system_prompt }),
        ...(spec.max_tool_rounds === undefined ? {} : { maxToolRounds: spec.max_tool_rounds }),
        ...(spec.services === undefined ? {} : { services: spec.services }),
      });
    }
    case 'http': {
      const apiKey = spec.api_key_env === undefined ? undefined : env[spec.api_key_env];
      if (spec.api_key_env !== undefined && (apiKey === undefined || apiKey === '')) {
        throw new ScenarioRunnerError('configuration', `agent.api_key_env: the variable ${spec.api_key_env} is not set`);
      }
      const settings: LlmSettings = { ...llm, agent: { ...llm.agent, baseURL: spec.base_url, ...(spec.model === undefined ? {} : { model: spec.model }), ...(apiKey === undefined ? {} : { apiKey }) } };
      const client = createRoleClient('agent', settings, env, undefined, models, { 'X-AgentBench-Services-URL': dependencies.runEnv[SERVICES_URL_VARIABLE] ?? '' }, dependencies.modelProxy);
      return new HttpAgentUnderTest(client, meter, trajectory, spec.system_prompt);
    }
    case 'command':
      return new CommandAgentUnderTest({
        command: spec.command,
        cwd: spec.cwd === undefined ? dependencies.cwd : path.resolve(dependencies.cwd, spec.cwd),
        env: dependencies.runEnv,
        trajectory,
        ...(spec.timeout_ms === undefined ? {} : { timeoutMs: spec.timeout_ms }),
      });
  }
}
