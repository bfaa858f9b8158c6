import { JUDGE_MODEL_TYPES, type JudgeClientOptions, type JudgeModelType } from '@agentbench/evaluators';
import { OPENROUTER_BASE_URL, type LlmClientOptions } from '@agentbench/agent-loop';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import type { LlmRole } from './usage-meter.js';

export const DEFAULT_AGENT_MODEL = 'openai/gpt-4o';
/** The simulator's default on OpenRouter: a cheaper model than the agent's. */
export const DEFAULT_SIMULATOR_MODEL = 'openai/gpt-4o-mini';

/** Where one role's requests go; every unset field comes from the environment. */
export interface RoleLlmSettings {
  baseURL?: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

/** The three roles are configured separately (a cheaper model for the simulator, say). */
export interface LlmSettings {
  agent?: RoleLlmSettings;
  simulator?: RoleLlmSettings;
  judge?: RoleLlmSettings & { cacheDir?: string; noCache?: boolean; modelTypes?: Partial<Record<JudgeModelType, string>> };
}

type Environment = Readonly<Record<string, string | undefined>>;

function firstSet(...values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined && value.trim() !== '')?.trim();
}

function isLoopback(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname;
    return host === 'localhost' || host.startsWith('127.') || host === '[::1]' || host === '::1';
  } catch {
    return false;
  }
}

const ROLE_PREFIX: Record<LlmRole, string> = { agent: 'AGENTBENCH_AGENT', simulator: 'AGENTBENCH_SIMULATOR', judge: 'AGENTBENCH_JUDGE' };

function agentBaseURL(settings: LlmSettings, env: Environment): string {
  return firstSet(settings.agent?.baseURL, env['AGENTBENCH_AGENT_BASE_URL'], env['OPENAI_BASE_URL']) ?? OPENROUTER_BASE_URL;
}

function apiKeyFor(role: LlmRole, explicit: string | undefined, baseURL: string, env: Environment): string {
  const generic = baseURL.startsWith(OPENROUTER_BASE_URL) ? firstSet(env['OPENROUTER_API_KEY'], env['OPENAI_API_KEY']) : firstSet(env['OPENAI_API_KEY'], env['OPENROUTER_API_KEY']);
  const key = firstSet(explicit, env[`${ROLE_PREFIX[role]}_API_KEY`], role === 'agent' ? undefined : env['AGENTBENCH_AGENT_API_KEY'], generic);
  if (key !== undefined) return key;
  if (isLoopback(baseURL)) return 'not-needed';
  throw new ScenarioRunnerError(
    'configuration',
    `no API key for the ${role} at ${baseURL}: set ${ROLE_PREFIX[role]}_API_KEY (or ${baseURL.startsWith(OPENROUTER_BASE_URL) ? 'OPENROUTER_API_KEY' : 'OPENAI_API_KEY'})` +
      // Offline, the way out is another endpoint, not a key.
      (baseURL.startsWith(OPENROUTER_BASE_URL)
        ? ', or point OPENAI_BASE_URL at any OpenAI-compatible server, the fake one included (pnpm fake-llm-server --script replies.json; a loopback server needs no key)'
        : ''),
  );
}

/**
 * Client options of a role. Precedence, first set wins:
 * - agent: settings, `AGENTBENCH_AGENT_BASE_URL`/`_MODEL`/`_API_KEY`, `OPENAI_BASE_URL`, `MODEL_NAME`, OpenRouter;
 * - simulator: settings, `AGENTBENCH_SIMULATOR_*`, else the agent's endpoint and key; its model defaults to
 *   `openai/gpt-4o-mini` on OpenRouter and to the agent's model elsewhere.
 */
export function roleClientOptions(role: 'agent' | 'simulator', settings: LlmSettings, env: Environment): LlmClientOptions {
  const own = settings[role] ?? {};
  const { baseURL, model } = roleEndpoint(role, settings, env);
  const options: LlmClientOptions = { baseURL, model, apiKey: apiKeyFor(role, own.apiKey, baseURL, env) };
  if (own.timeoutMs !== undefined) options.timeoutMs = own.timeoutMs;
  if (own.maxRetries !== undefined) options.retry = { maxRetries: own.maxRetries };
  return options;
}

/** A role's endpoint and model as its client resolves them (see `roleClientOptions`), without a key. */
function roleEndpoint(role: 'agent' | 'simulator', settings: LlmSettings, env: Environment): { baseURL: string; model: string } {
  const agentURL = agentBaseURL(settings, env);
  const baseURL = role === 'agent' ? agentURL : (firstSet(settings.simulator?.baseURL, env['AGENTBENCH_SIMULATOR_BASE_URL']) ?? agentURL);
  const agentModel = firstSet(settings.agent?.model, env['AGENTBENCH_AGENT_MODEL'], env['MODEL_NAME']) ?? DEFAULT_AGENT_MODEL;
  if (role === 'agent') return { baseURL, model: agentModel };
  return { baseURL, model: firstSet(settings.simulator?.model, env['AGENTBENCH_SIMULATOR_MODEL']) ?? (baseURL.startsWith(OPENROUTER_BASE_URL) ? DEFAULT_SIMULATOR_MODEL : agentModel) };
}

/** One role's model settings after settings and environment are merged; never a key. */
export interface ResolvedRoleModel {
  baseURL: string;
  /** Undefined for a judge without a base model (each evaluation's `model` or `model_type` decides). */
  model: string | undefined;
  timeoutMs?: number;
  maxRetries?: number;
}

/** Every role's model settings as the run's clients resolve them: what a replay passes back as explicit settings. */
export function resolvedModelSettings(
  settings: LlmSettings,
  env: Environment,
): { agent: ResolvedRoleModel; simulator: ResolvedRoleModel; judge: ResolvedRoleModel & { modelTypes: Partial<Record<JudgeModelType, string>>; isCacheEnabled: boolean } } {
  const limits = (own: RoleLlmSettings | undefined): Pick<ResolvedRoleModel, 'timeoutMs' | 'maxRetries'> => ({
    ...(own?.timeoutMs === undefined ? {} : { timeoutMs: own.timeoutMs }),
    ...(own?.maxRetries === undefined ? {} : { maxRetries: own.maxRetries }),
  });
  const modelTypes: Partial<Record<JudgeModelType, string>> = {};
  for (const [type, { variable }] of Object.entries(JUDGE_MODEL_TYPES) as [JudgeModelType, { variable: string }][]) {
    const model = firstSet(settings.judge?.modelTypes?.[type], env[variable]);
    if (model !== undefined) modelTypes[type] = model;
  }
  return {
    agent: { ...roleEndpoint('agent', settings, env), ...limits(settings.agent) },
    simulator: { ...roleEndpoint('simulator', settings, env), ...limits(settings.simulator) },
    judge: {
      baseURL: roleUpstreams(settings, env).judge,
      model: firstSet(settings.judge?.model, env['AGENTBENCH_JUDGE_MODEL']),
      ...limits(settings.judge),
      modelTypes,
      isCacheEnabled: settings.judge?.noCache !== true,
    },
  };
}

/**
 * Judge options for the evaluators: explicit settings, else `AGENTBENCH_JUDGE_*` (read by the evaluators
 * themselves), else the agent's endpoint. Variables are read from the run's environment.
 */
export function judgeClientOptions(settings: LlmSettings, env: Environment, repeatIndex = 0): JudgeClientOptions {
  const own = settings.judge ?? {};
  const baseURL = firstSet(own.baseURL, env['AGENTBENCH_JUDGE_BASE_URL']) ?? agentBaseURL(settings, env);
  const options: JudgeClientOptions = { baseURL, env, repeatIndex };
  const apiKey = firstSet(own.apiKey, env['AGENTBENCH_JUDGE_API_KEY'], env['AGENTBENCH_AGENT_API_KEY']);
  if (apiKey !== undefined) options.apiKey = apiKey;
  const model = firstSet(own.model, env['AGENTBENCH_JUDGE_MODEL']);
  if (model !== undefined) options.model = model;
  if (own.timeoutMs !== undefined) options.timeoutMs = own.timeoutMs;
  if (own.maxRetries !== undefined) options.maxRetries = own.maxRetries;
  if (own.cacheDir !== undefined) options.cacheDir = own.cacheDir;
  if (own.noCache !== undefined) options.noCache = own.noCache;
  if (own.modelTypes !== undefined) options.modelTypes = own.modelTypes;
  return options;
}

/**
 * The endpoint each role's requests go to, resolved as the clients resolve them but without keys:
 * the upstreams of the run's model proxy.
 */
export function roleUpstreams(settings: LlmSettings, env: Environment): Record<LlmRole, string> {
  const agent = agentBaseURL(settings, env);
  return {
    agent,
    simulator: firstSet(settings.simulator?.baseURL, env['AGENTBENCH_SIMULATOR_BASE_URL']) ?? agent,
    judge: firstSet(settings.judge?.baseURL, env['AGENTBENCH_JUDGE_BASE_URL']) ?? agent,
  };
}
