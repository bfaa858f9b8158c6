import { createEvaluatorRegistry, type EvaluatorRegistry, type LoadedPluginSet } from '@agentbench/evaluators';
import { DEFAULT_DOCKER_IMAGE } from '@agentbench/sandbox';
import { formatIssue, loadScenario, type LoadedScenario, type ValidationIssue } from '@agentbench/schemas';
import { toolDefinitions } from '@agentbench/tools';
import type { AgentSpec } from '../agents/agent-under-test.js';
import { scenarioContentIssues } from '../validation/scenario-content-issues.js';
import { conditionKeywords, type CustomTerminationCondition } from '../conversation/termination.js';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { IsolatedScriptRunner } from '../mocks/isolated-script-runner.js';
import { MockEngine, type ServiceCatalog } from '../mocks/mock-engine.js';
import { customTerminationConditions, loadRunnerPlugins, resolveRunnerPlugins, type PluginResolution } from '../plugins/runner-plugins.js';
import { BUILTIN_PROVIDERS, KNOWN_PROVIDER_PLUGINS } from '../providers/builtin-providers.js';
import { sandboxBackendOf } from '../providers/sandbox-backend-provider.js';
import { createSeededRandom } from '../random/seeded-random.js';
import { DATABASE_SERVICE_NAME } from '../services/database-service.js';
import { TOOLS_SERVICE_NAME } from '../services/service-gateway.js';
import { chooseAgentSpec } from '../run/run-scenario.js';

export type PlanStatus = 'built-in' | 'plugin' | 'not_installed' | 'unknown';

export interface PlannedEvaluator {
  type: string;
  description?: string;
  /** `built-in`, the plugin that provides it, or `not installed`. */
  source: string;
  isAvailable: boolean;
}

export interface PlannedStep {
  index: number;
  name: string;
  kind: 'code' | 'input' | 'conversation';
  lang?: string;
  input?: string;
  evaluators: PlannedEvaluator[];
  conversation?: {
    maxTurns: number;
    userSimulator: { persona: string; objective: string; modelType: string; temperature: number; maxTokens: number };
    terminationConditions: string[];
    turnEvaluators: PlannedEvaluator[];
    finalEvaluators: PlannedEvaluator[];
  };
}

/** What `ab scenario run --dry-run` shows: everything a run would use, and what is missing, without calling a model. */
export interface ScenarioPlan {
  file: string;
  name: string;
  description: string;
  environment: { type: string; status: PlanStatus; detail: string };
  agent: { type: AgentSpec['type']; source: '--agent' | 'scenario' | 'default'; detail: string };
  plugins: { reference: string; status: PluginResolution['status'] | 'load_failed'; detail: string }[];
  services: { name: string; source: string; methods: string[] }[];
  mocks: { index: number; target: string; status: 'ok' | 'unavailable' | 'invalid'; detail: string }[];
  steps: PlannedStep[];
  judgment: { strategy: string; threshold?: number; allowEmpty: boolean };
  isLive: boolean;
  /** Would stop a real run although the file is valid (a missing plugin or provider). */
  missing: string[];
  /** Wrong in the file itself: the dry run fails. */
  errors: string[];
  warnings: string[];
  /**
   * Every problem at its place in the file: the errors, and as warnings what is missing here (a plugin
   * or provider not installed) and steps without evaluations. What `ab validate` adds to a file's issues.
   */
  issues: ValidationIssue[];
}

export interface PlanScenarioOptions {
  agent?: AgentSpec;
  isLive?: boolean;
  plugins?: { fromCli?: readonly string[]; cwd?: string; configFile?: string | false };
}

function describeAgent(spec: AgentSpec): string {
  switch (spec.type) {
    case 'llm':
      return `our LLM agent with the run's tools and services as functions${spec.model === undefined ? '' : ` (model ${spec.model})`}`;
    case 'http':
      return `OpenAI-compatible endpoint ${spec.base_url}${spec.model === undefined ? '' : ` (model ${spec.model})`}`;
    case 'command':
      return `command ${JSON.stringify(spec.command)} (input on stdin, reply on stdout)`;
  }
}

/**
 * Validates a scenario and plans its run without running anything or calling a model: the provider,
 * the agent, each plugin (resolved, disabled or not installed), the services and mocks, and per step
 * the evaluators it would use. Plugins and providers that are not installed are listed in `missing`,
 * not as errors: the file is still valid.
 */
export async function planScenario(scenario: string | LoadedScenario, options: PlanScenarioOptions = {}): Promise<ScenarioPlan> {
  return (await planScenarioWithRegistry(scenario, options)).plan;
}

/** The plan, and the evaluator registry and plugin conditions a run would use (for the matrix checks). */
export async function planScenarioWithRegistry(
  scenario: string | LoadedScenario,
  options: PlanScenarioOptions = {},
): Promise<{ plan: ScenarioPlan; registry: EvaluatorRegistry; customConditions: ReadonlyMap<string, CustomTerminationCondition> | undefined }> {
  const loaded = typeof scenario === 'string' ? await loadScenario(scenario) : scenario;
  const { scenario: definition } = loaded;
  const missing: string[] = [];
  const errors: string[] = [];
  const warnings = loaded.warnings.map(formatIssue);
  const issues: ValidationIssue[] = [];
  const at = (path: string, message: string, severity: ValidationIssue['severity'] = 'error'): ValidationIssue => ({
    file: loaded.file,
    ...loaded.locate(path),
    path,
    message,
    severity,
  });
  const addError = (issue: ValidationIssue): void => {
    issues.push(issue);
    errors.push(formatIssue(issue));
  };
  const addMissing = (text: string, issue: ValidationIssue): void => {
    missing.push(text);
    issues.push({ ...issue, severity: 'warning', message: `${issue.message} (a run stops here until it is installed)` });
  };
  const pluginOptions = { scenarioFile: loaded.file, scenarioDir: loaded.dir, ...options.plugins };

  const resolutions = await resolveRunnerPlugins(definition.plugins, pluginOptions);
  const plugins: ScenarioPlan['plugins'] = resolutions.map((resolution) => ({ reference: resolution.reference, status: resolution.status, detail: resolution.message }));
  const unavailable = resolutions.filter((resolution) => resolution.status !== 'resolved' && resolution.status !== 'disabled');
  for (const resolution of unavailable) {
    const text = `plugin ${resolution.reference} is ${resolution.status === 'not_installed' ? 'not installed' : resolution.status.replace('_', ' ')}: ${resolution.message}`;
    addMissing(text, at(definition.plugins.length > 0 ? 'plugins' : '', text));
  }
  let pluginSet: LoadedPluginSet | undefined;
  if (unavailable.length === 0) {
    try {
      pluginSet = await loadRunnerPlugins(definition.plugins, pluginOptions);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      addError(at(definition.plugins.length > 0 ? 'plugins' : '', message));
      for (const plugin of plugins) if (plugin.status === 'resolved') Object.assign(plugin, { status: 'load_failed', detail: message });
    }
  }
  const isPluginMissing = unavailable.length > 0 || pluginSet === undefined;
  const missingNames = unavailable.map((resolution) => resolution.reference).join(', ');
  const registry: EvaluatorRegistry = createEvaluatorRegistry(pluginSet === undefined ? {} : { plugins: pluginSet });

  // Environment provider.
  const type = definition.environment.type;
  let environment: ScenarioPlan['environment'];
  // Whether the run's environment is a sandbox (so the agent gets the tools service on it).
  let isSandbox = false;
  if (BUILTIN_PROVIDERS[type] !== undefined) {
    isSandbox = true;
    environment = {
      type,
      status: 'built-in',
      detail: type === 'local' ? 'local sandbox backend on a temporary folder (no isolation)' : `docker sandbox backend (${definition.environment.image ?? DEFAULT_DOCKER_IMAGE}, network ${definition.environment.network ?? 'none'}${definition.environment.runtime === undefined ? '' : `, runtime ${definition.environment.runtime}`})`,
    };
  } else if (pluginSet?.environmentProviders.has(type) === true) {
    const contribution = pluginSet.environmentProviders.get(type)!;
    const backend = sandboxBackendOf(contribution.item);
    isSandbox = backend !== undefined;
    const isolation = backend?.promises?.isolation;
    environment = {
      type,
      status: 'plugin',
      detail: `${backend === undefined ? '' : `sandbox backend (isolation: ${isolation ?? 'none promised'}) `}from plugin ${contribution.plugin.name} ${contribution.plugin.version}`,
    };
  } else {
    const known = KNOWN_PROVIDER_PLUGINS[type];
    const detail = `not installed: needs ${known ?? `a plugin that provides environment type "${type}"`}`;
    environment = { type, status: 'not_installed', detail };
    addMissing(`environment provider ${type} is ${detail}`, at('environment.type', `environment provider ${type} is ${detail}`));
  }

  // Agent.
  const isAgentNeeded = definition.run.some((step) => step.conversation !== undefined || step.code === undefined);
  let agent: ScenarioPlan['agent'];
  try {
    const choice = chooseAgentSpec(loaded, options.agent);
    agent = { type: choice.spec.type, source: choice.source, detail: isAgentNeeded ? describeAgent(choice.spec) : `${describeAgent(choice.spec)}; not started (no step talks to an agent)` };
  } catch (error) {
    addError(at('agent', error instanceof Error ? error.message : String(error)));
    agent = { type: 'llm', source: 'default', detail: 'invalid agent block' };
  }

  // Services the run would offer, and the mocks against them.
  const services: ScenarioPlan['services'] = [];
  if (definition.setup?.database !== undefined) services.push({ name: DATABASE_SERVICE_NAME, source: 'built-in (SQLite seeded from setup.database)', methods: ['query', 'execute', 'tables', 'describe'] });
  if (isSandbox) services.push({ name: TOOLS_SERVICE_NAME, source: `built-in (on the ${type} sandbox)`, methods: toolDefinitions().map((tool) => tool.function.name) });
  for (const [name, { plugin }] of pluginSet?.services ?? []) services.push({ name, source: `plugin ${plugin.name} ${plugin.version}`, methods: [] });
  const catalog: ServiceCatalog = {
    hasService: (service) => services.some((entry) => entry.name === service),
    // Plugin services declare their methods only once created: any method counts.
    hasMethod: (service, method) => services.some((entry) => entry.name === service && (entry.methods.length === 0 || entry.methods.includes(method))),
    servicesWithMethod: (method) => services.filter((entry) => entry.methods.length === 0 || entry.methods.includes(method)).map((entry) => entry.name),
    serviceNames: () => services.map((entry) => entry.name),
    methodNames: (service) => services.find((entry) => entry.name === service)?.methods ?? [],
  };
  const scripts = new IsolatedScriptRunner();
  const mockList = definition.setup?.mocks ?? [];
  const engine = new MockEngine(mockList, { random: createSeededRandom(0), scripts, isLive: false });
  const problems = engine.configurationProblems(catalog);
  await scripts.close();
  const mocks: ScenarioPlan['mocks'] = mockList.map((mock, index) => {
    const target = `${mock.service ?? '*'}.${mock.method}`;
    const own = problems.filter((problem) => problem.startsWith(`setup.mocks[${index}].`));
    if (own.length === 0) return { index, target, status: 'ok', detail: options.isLive === true ? 'ignored (--live)' : 'will intercept matching calls' };
    // A service nobody here provides would come from a plugin (ElizaOS files mock `github-service`,
    // `e2b`): the plan reports it as missing; a wrong method of a service we have is an error.
    const isUnavailableService = own.every((problem) => /\.service: unknown service|\.method: no service has a method/.test(problem));
    if (isUnavailableService) {
      const detail = `service ${mock.service ?? `with method ${mock.method}`} is not available here: it would come from a plugin${isPluginMissing ? ` (not installed: ${missingNames || 'see plugins'})` : ' (no loaded plugin provides it)'}`;
      addMissing(`setup.mocks[${index}] (${target}): ${detail}`, at(`setup.mocks[${index}]`, detail));
      return { index, target, status: 'unavailable', detail };
    }
    if (options.isLive !== true) {
      for (const problem of own) {
        const separator = problem.indexOf(': ');
        addError(separator === -1 ? at(`setup.mocks[${index}]`, problem) : at(problem.slice(0, separator), problem.slice(separator + 2)));
      }
    }
    return { index, target, status: 'invalid', detail: own.join('; ') };
  });

  // What a run checks in the file before it starts (evaluators, languages, plugin conditions): the same function.
  const customConditions = pluginSet === undefined || isPluginMissing ? undefined : customTerminationConditions(pluginSet);
  for (const issue of scenarioContentIssues(loaded, { registry, ...(customConditions === undefined ? {} : { customConditions }) })) {
    if (issue.severity !== 'error') continue;
    const isUnknownType = issue.path.endsWith('.type') && issue.message.startsWith('unknown evaluator type');
    if (isUnknownType && isPluginMissing) addMissing(`${issue.path}: ${issue.message}`, issue);
    else addError(issue);
  }

  // Evaluators per step.
  const planEvaluator = (entry: { type: string; description?: string | undefined }): PlannedEvaluator => {
    const source = registry.sourceOf(entry.type);
    return {
      type: entry.type,
      ...(entry.description === undefined ? {} : { description: entry.description }),
      source: source ?? (isPluginMissing ? 'not installed (no loaded plugin provides it)' : 'unknown'),
      isAvailable: source !== undefined,
    };
  };
  const steps: PlannedStep[] = definition.run.map((step, index) => {
    const kind: PlannedStep['kind'] = step.conversation !== undefined ? 'conversation' : step.code !== undefined ? 'code' : 'input';
    const planned: PlannedStep = { index, name: step.name ?? `run[${index}]`, kind, evaluators: step.evaluations.map(planEvaluator) };
    if (kind === 'code') planned.lang = step.lang ?? 'bash (default)';
    if (step.input !== undefined && kind !== 'code') planned.input = step.input;
    const conversation = step.conversation;
    if (conversation !== undefined) {
      planned.conversation = {
        maxTurns: conversation.max_turns,
        userSimulator: {
          persona: conversation.user_simulator.persona,
          objective: conversation.user_simulator.objective,
          modelType: conversation.user_simulator.model_type,
          temperature: conversation.user_simulator.temperature,
          maxTokens: conversation.user_simulator.max_tokens,
        },
        terminationConditions: conversation.termination_conditions.map((condition) => {
          const keywords = conditionKeywords(condition);
          const parts: string[] = [condition.type];
          if (keywords.length > 0) parts.push(`keywords: ${keywords.join(', ')}`);
          if (condition.llm_judge !== undefined) parts.push(`llm_judge (threshold ${condition.llm_judge.threshold})`);
          if (condition.name !== undefined) {
            const custom = pluginSet?.terminationConditions.get(condition.name);
            parts.push(`plugin condition ${condition.name}${custom === undefined ? ` (not available${isPluginMissing ? ': its plugin is not installed' : ''})` : ` from ${custom.plugin.name}`}`);
          }
          return parts.join('; ');
        }),
        turnEvaluators: conversation.turn_evaluations.map(planEvaluator),
        finalEvaluators: conversation.final_evaluations.map(planEvaluator),
      };
    }
    const count = step.evaluations.length + (conversation?.turn_evaluations.length ?? 0) + (conversation?.final_evaluations.length ?? 0);
    if (count === 0) {
      const warning = `run[${index}] has no evaluations${definition.judgment.strategy === 'all_pass' && !definition.judgment.allow_empty ? ': under all_pass the run will fail (set judgment.allow_empty: true to allow it)' : ''}`;
      warnings.push(warning);
      issues.push(at(`run[${index}]`, warning.replace(/^run\[\d+\] /, 'this step '), 'warning'));
    }
    return planned;
  });

  const plan: ScenarioPlan = {
    file: loaded.file,
    name: definition.name,
    description: definition.description,
    environment,
    agent,
    plugins,
    services,
    mocks,
    steps,
    judgment: {
      strategy: definition.judgment.strategy,
      ...(definition.judgment.threshold === undefined ? {} : { threshold: definition.judgment.threshold }),
      allowEmpty: definition.judgment.allow_empty,
    },
    isLive: options.isLive === true,
    missing,
    errors,
    warnings,
    issues,
  };
  return { plan, registry, customConditions };
}

/** Throws when a plan has errors (used by callers that want a plan or nothing). */
export function assertPlanValid(plan: ScenarioPlan): void {
  if (plan.errors.length > 0) throw new ScenarioRunnerError('configuration', `${plan.file}: ${plan.errors.join('; ')}`);
}
