import { loadScenario, type LoadedScenario } from '@agentbench/schemas';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import type { RunScenarioOptions } from './run-options.js';
import type { ScenarioRunResult } from './scenario-result.js';
import { modelProxyStage } from './stages/model-proxy-stage.js';
import { settingsStage } from './stages/settings-stage.js';
import {
  agentStage,
  createScenarioRun,
  environmentStage,
  judgeStage,
  judgmentStage,
  loadStage,
  resultStage,
  servicesStage,
  startRun,
  stepsStage,
  type ScenarioRun,
} from './stages/index.js';

export type { RunScenarioOptions, ScenarioRunEvent } from './run-options.js';
export { chooseAgentSpec, providerNotInstalledError, validateEvaluations } from './stages/index.js';

// Problems found while preparing (a mock of an unknown service, a conversation condition, a missing
// plugin or provider) are the user's to fix: they throw, rather than becoming an errored result.
const INPUT_PROBLEM_KINDS = ['mock_configuration', 'configuration', 'provider_not_installed', 'plugin_load_failed'];

/**
 * Runs one scenario through the spec's lifecycle: load and validate, load plugins, initialise the
 * environment provider, setup (virtual files, database, mocks), run the steps (code, agent input,
 * conversations), evaluate, judge, write `result.json`. Input problems found before anything runs
 * (invalid file or evaluations, missing plugin or provider, a mock of an unknown service) throw; what
 * goes wrong once the run started is recorded in the result, whose status is then `errored`.
 */
export async function runScenario(scenario: string | LoadedScenario, options: RunScenarioOptions = {}): Promise<ScenarioRunResult> {
  const loaded = typeof scenario === 'string' ? await loadScenario(scenario) : scenario;
  const start = startRun(loaded, options);
  const run = createScenarioRun(loaded, options, start, await loadStage(loaded, options, start));
  try {
    await settingsStage(run);
    await modelProxyStage(run);
    const endpoint = await servicesStage(run);
    const provider = await environmentStage(run, endpoint);
    agentStage(run, endpoint);
    const evaluation = judgeStage(run, provider);
    await stepsStage(run, provider, evaluation);
  } catch (error) {
    await run.resources.release(run.recordError);
    if (ScenarioRunnerError.isInstance(error) && INPUT_PROBLEM_KINDS.includes(error.kind)) throw error;
    run.recordError('setup', error);
    return finishRun(run);
  }
  await run.resources.release(run.recordError);
  return finishRun(run);
}

async function finishRun(run: ScenarioRun): Promise<ScenarioRunResult> {
  return resultStage(run, judgmentStage(run));
}
