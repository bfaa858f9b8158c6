import type { LoadedScenario } from '@agentbench/schemas';
import type { AgentSpec } from '../agents/agent-under-test.js';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { roleClientOptions, type LlmSettings } from '../llm/llm-settings.js';
import { chooseAgentSpec } from '../run/stages/load-stage.js';
import { stepKind } from '../run/stages/steps/step-kind.js';

/** Long enough for a slow provider to answer at all; a refused or unresolved connection fails at once. */
const PROBE_TIMEOUT_MS = 10_000;

/** Why a request to the endpoint got no HTTP answer (`ECONNREFUSED`, `ENOTFOUND`, a timeout), or undefined when it answered. */
async function unreachableReason(baseURL: string, apiKey: string): Promise<string | undefined> {
  try {
    // Any HTTP answer, an error status included, shows the endpoint is there: only no answer refuses.
    const response = await fetch(`${baseURL.replace(/\/+$/, '')}/models`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (error instanceof Error && error.name === 'TimeoutError') return `no answer in ${PROBE_TIMEOUT_MS / 1000} s`;
    return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  }
}

/**
 * Before a matrix starts its runs, once: our LLM agent has a key for its endpoint (or the endpoint is a
 * keyless loopback server), and the endpoint answers. Without this a matrix with no key started every
 * run, errored each one, and printed confidence intervals over the errors. Throws one configuration
 * error naming what to set. Other agents (http, command) bring their own endpoint and are not checked.
 */
export async function checkAgentEndpoint(
  base: LoadedScenario,
  options: { agent?: AgentSpec; llm?: LlmSettings; env?: Readonly<Record<string, string | undefined>> },
): Promise<void> {
  const { spec } = chooseAgentSpec(base, options.agent);
  if (spec.type !== 'llm' || !base.scenario.run.some((step) => stepKind(step) !== 'code')) return;
  const llm = options.llm ?? {};
  const settings: LlmSettings = { ...llm, agent: { ...llm.agent, ...(spec.model === undefined ? {} : { model: spec.model }), ...(spec.base_url === undefined ? {} : { baseURL: spec.base_url }) } };
  // The runs' own resolution: the same error a run would end with, said once.
  const client = roleClientOptions('agent', settings, { ...process.env, ...options.env });
  const { baseURL } = client;
  const reason = await unreachableReason(baseURL, client.apiKey);
  if (reason !== undefined) {
    throw new ScenarioRunnerError(
      'configuration',
      `the agent's endpoint ${baseURL} does not answer (${reason}): no run was started. Start the server it names, or point OPENAI_BASE_URL at one that runs (the fake one: pnpm fake-llm-server --script replies.json)`,
    );
  }
}
