import { createEvaluatorRegistry, type EvaluatorRegistry } from '@agentbench/evaluators';
import { FileValidationError, hasErrors, sortIssues, type LoadedScenario } from '@agentbench/schemas';
import { DEFAULT_AGENT_SPEC, type AgentSpec } from '../../agents/agent-under-test.js';
import { scenarioContentIssues } from '../../validation/scenario-content-issues.js';
import { NotInstalledError } from '../../errors/not-installed-error.js';
import { customTerminationConditions, loadRunnerPlugins } from '../../plugins/runner-plugins.js';
import { BUILTIN_PROVIDERS, KNOWN_PROVIDER_PLUGINS } from '../../providers/builtin-providers.js';
import type { RunScenarioOptions } from '../run-options.js';
import type { LoadedRun, RunStart } from './scenario-run.js';

/** The agent a run will use and where the choice came from. */
export function chooseAgentSpec(loaded: LoadedScenario, override: AgentSpec | undefined): { spec: AgentSpec; source: '--agent' | 'scenario' | 'default' } {
  if (override !== undefined) return { spec: override, source: '--agent' };
  // The schema validated the file's `agent:` block when the scenario was loaded.
  const fromFile = loaded.scenario.agent;
  return fromFile === undefined ? { spec: DEFAULT_AGENT_SPEC, source: 'default' } : { spec: fromFile, source: 'scenario' };
}

/** Throws a `FileValidationError` for evaluations the registry rejects (unknown types, bad parameters). */
export function validateEvaluations(registry: EvaluatorRegistry, loaded: LoadedScenario): void {
  const issues = registry.validateScenario(loaded);
  if (issues.some((issue) => issue.severity === 'error')) throw new FileValidationError(issues);
}

/** The provider error for a type nobody provides, naming the plugin to install. */
export function providerNotInstalledError(type: string, file: string): NotInstalledError {
  const known = KNOWN_PROVIDER_PLUGINS[type];
  const packageName = known ?? `a plugin that provides environment type "${type}"`;
  const message =
    known === undefined
      ? `${file}: environment.type "${type}" is not a built-in provider (${Object.keys(BUILTIN_PROVIDERS).join(', ')}) and no loaded plugin provides it: install a plugin that registers environment provider "${type}" and list it under \`plugins:\``
      : `${file}: environment.type "${type}" needs the provider plugin ${known}, which is not installed: install it (pnpm add ${known}) and list it under \`plugins:\``;
  return new NotInstalledError('provider_not_installed', message, packageName);
}

/**
 * Loading: plugins, evaluations, code languages and plugin conditions checked (the same checks as the
 * dry-run plan and `ab validate`), the agent chosen, the provider found. Problems here throw before
 * anything runs.
 */
export async function loadStage(loaded: LoadedScenario, options: RunScenarioOptions, start: RunStart): Promise<LoadedRun> {
  const definition = loaded.scenario;
  const plugins = await loadRunnerPlugins(definition.plugins, { scenarioFile: loaded.file, scenarioDir: loaded.dir, ...options.plugins });
  const evaluators = createEvaluatorRegistry({ plugins });
  const customConditions = customTerminationConditions(plugins);
  const contentIssues = scenarioContentIssues(loaded, { registry: evaluators, customConditions });
  if (hasErrors(contentIssues)) throw new FileValidationError(sortIssues(contentIssues));
  definition.run.forEach((step, index) => {
    if (step.conversation === undefined && step.code !== undefined && step.input !== undefined) start.warn(`run[${index}] has both code and input: the code runs, the input is not sent`);
  });
  const agentChoice = chooseAgentSpec(loaded, options.agent);
  const providerType = definition.environment.type;
  if (BUILTIN_PROVIDERS[providerType] === undefined && !plugins.environmentProviders.has(providerType)) {
    throw providerNotInstalledError(providerType, loaded.file);
  }
  return { plugins, evaluators, customConditions, agentChoice, providerType };
}
