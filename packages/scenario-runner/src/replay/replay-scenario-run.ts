import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CASSETTE_FILE_NAME, checkCassetteRun, readCassette, type Divergence } from '@agentbench/cassette';
import { JUDGE_MODEL_TYPES } from '@agentbench/evaluators';
import { loadScenario, type LoadedScenario, type ScenarioRunSettings } from '@agentbench/schemas';
import { timestampForPath, writeJsonAtomic } from '@agentbench/helpers';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import type { LlmSettings, RoleLlmSettings } from '../llm/llm-settings.js';
import { applyCombination } from '../matrix/expand-matrix.js';
import type { RunScenarioOptions, ScenarioRunEvent } from '../run/run-options.js';
import { runScenario } from '../run/run-scenario.js';
import type { ScenarioRunResult } from '../run/scenario-result.js';
import { compareScenarioResults, type ScenarioComparison } from './compare-scenario-results.js';
import { readRunSettings, readScenarioResult } from './read-scenario-run.js';

export interface ReplayScenarioRunOptions {
  /** The scenario run's folder: `result.json`, `run-settings.json`, `scenario.yaml` and `cassette.jsonl`. */
  runDir: string;
  /** After the first request the cassette does not hold, go on against the live endpoints (replay-then-fork). Default: stop there. */
  thenLive?: boolean;
  /** The replay's folder. Default: beside the original, `<run folder>__replay-<time>`. */
  outDir?: string;
  /** Another scenario file (an edited prompt or user line) to see where it leaves the recording. Default: the copy the run kept. */
  scenario?: string;
  /** Variables for the replay (API keys for `thenLive`); read over `process.env`. */
  env?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  onEvent?: (event: ScenarioRunEvent) => void;
}

export interface ReplayScenarioRunResult {
  original: { runDir: string; result: ScenarioRunResult };
  replay: { runDir: string; result: ScenarioRunResult };
  mode: 'replay' | 'replay-then-live';
  /** The first request the cassette did not hold. */
  divergence: Divergence | undefined;
  /** Where a `thenLive` replay went live. */
  forkedAt: { role: string; step: number } | undefined;
  /** Recorded exchanges the replay never asked for. */
  unservedExchanges: number;
  comparison: ScenarioComparison;
}

export const REPLAY_FILE = 'replay.json';

/**
 * Re-runs a recorded scenario run with every role's model answers (agent, user simulator, judge)
 * served from its cassette: the scenario as it ran, its matrix cell, seed, agent choice and each
 * role's model and endpoint from `run-settings.json`; steps, code and tools really run again, offline.
 * The replay is a new run folder with its own cassette (marked as a replay), `result.json` and a
 * `replay.json` naming the original, the mode, the divergence and the comparison.
 */
export async function replayScenarioRun(options: ReplayScenarioRunOptions): Promise<ReplayScenarioRunResult> {
  const runDir = path.resolve(options.runDir);
  const original = await readScenarioResult(runDir);
  const settings = await readRunSettings(runDir);
  const cassette = await readCassette(path.join(runDir, CASSETTE_FILE_NAME));
  const loaded = await scenarioToReplay(runDir, settings, options.scenario);
  checkCassetteRun(cassette, { scenarioId: loaded.scenario.name, repeatIndex: settings.repeat_index });

  const mode = options.thenLive === true ? 'replay-then-live' : 'replay';
  const outDir = path.resolve(options.outDir ?? `${runDir}__replay-${timestampForPath(new Date())}`);
  let divergence: Divergence | undefined;
  const runOptions: RunScenarioOptions = {
    seed: settings.seed,
    isLive: settings.is_live,
    llm: recordedLlmSettings(settings, mode),
    env: replayEnvironment(settings, options.env ?? {}, mode),
    outDir,
    stepTimeoutMs: settings.step_timeout_ms,
    replay: { mode, cassette, onDivergence: (found) => (divergence = found) },
    ...(settings.agent.source === '--agent' ? { agent: settings.agent.spec } : {}),
    ...(settings.script_timeout_ms === undefined ? {} : { scriptTimeoutMs: settings.script_timeout_ms }),
    ...(settings.matrix === null ? {} : { matrix: settings.matrix }),
    ...(settings.plugins === null
      ? {}
      : { plugins: { fromCli: settings.plugins.from_cli, ...(settings.plugins.cwd === null ? {} : { cwd: settings.plugins.cwd }), ...(settings.plugins.config_file === null ? {} : { configFile: settings.plugins.config_file }) } }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  };
  const result = await runScenario(loaded, runOptions);

  // A replay that errored before its proxy started has no cassette of its own: nothing served, no fork.
  const replayCassette = await readCassette(path.join(outDir, CASSETTE_FILE_NAME)).catch(() => undefined);
  const forkedAt = replayCassette?.header.replay_of?.forked_at ?? undefined;
  const servedCount = replayCassette?.exchanges.filter((exchange) => exchange.source === 'cassette').length ?? 0;
  const comparison = compareScenarioResults(original, result);
  const replayed: ReplayScenarioRunResult = {
    original: { runDir, result: original },
    replay: { runDir: outDir, result },
    mode,
    divergence,
    forkedAt,
    unservedExchanges: cassette.exchanges.length - servedCount,
    comparison,
  };
  await writeJsonAtomic(path.join(outDir, REPLAY_FILE), {
    replay_of: { run_dir: runDir, run_id: original.run_id, cassette: cassette.file },
    mode,
    scenario_file: loaded.file,
    divergence: divergence ?? null,
    forked_at: forkedAt ?? null,
    unserved_exchanges: replayed.unservedExchanges,
    comparison,
  });
  return replayed;
}

/**
 * The scenario as the run read it (the copy in the run folder, checked against its sha256), loaded as
 * if from its original place so relative paths resolve as they did; or another file the caller names.
 * A matrix cell gets its parameters set again.
 */
async function scenarioToReplay(runDir: string, settings: ScenarioRunSettings, otherFile: string | undefined): Promise<LoadedScenario> {
  let loaded: LoadedScenario;
  if (otherFile === undefined) {
    const copy = path.join(runDir, settings.scenario.copy);
    let text: string;
    try {
      text = await readFile(copy, 'utf8');
    } catch {
      throw new ScenarioRunnerError('replay', `${copy}: not found: expected the copy of the scenario the run read`);
    }
    const digest = createHash('sha256').update(text).digest('hex');
    if (digest !== settings.scenario.sha256) {
      throw new ScenarioRunnerError('replay', `${copy}: changed since the run (sha256 ${digest.slice(0, 12)}…, recorded ${settings.scenario.sha256.slice(0, 12)}…); to replay an edited scenario, give it as another file`);
    }
    loaded = { ...(await loadScenario(copy)), file: settings.scenario.file, dir: path.dirname(settings.scenario.file) };
  } else {
    loaded = await loadScenario(path.resolve(otherFile));
  }
  if (settings.matrix === null) return loaded;
  const { combination, parameters } = settings.matrix;
  return { ...loaded, scenario: applyCombination(loaded.scenario, { index: 0, id: combination, label: combination, parameters }) };
}

/**
 * Every role's model and endpoint as the run resolved them, as explicit settings (which win over the
 * environment). An offline replay needs no real key: the proxy never forwards.
 */
function recordedLlmSettings(settings: ScenarioRunSettings, mode: 'replay' | 'replay-then-live'): LlmSettings {
  const role = (recorded: ScenarioRunSettings['llm']['agent']): RoleLlmSettings => ({
    baseURL: recorded.base_url,
    ...(recorded.model === null ? {} : { model: recorded.model }),
    ...(recorded.timeout_ms === undefined ? {} : { timeoutMs: recorded.timeout_ms }),
    ...(recorded.max_retries === undefined ? {} : { maxRetries: recorded.max_retries }),
    ...(mode === 'replay' ? { apiKey: 'offline-replay' } : {}),
  });
  const { judge } = settings.llm;
  return {
    agent: role(settings.llm.agent),
    simulator: role(settings.llm.simulator),
    judge: { ...role(judge), modelTypes: judge.model_types, noCache: true },
  };
}

/**
 * The replay's variables: the caller's, with the judge model variables emptied (the recorded models
 * are explicit settings; a model the run left to the evaluation must not come from this shell), and,
 * offline, a placeholder for an http agent's key variable.
 */
function replayEnvironment(settings: ScenarioRunSettings, env: Readonly<Record<string, string>>, mode: 'replay' | 'replay-then-live'): Record<string, string> {
  const replayed: Record<string, string> = { ...env, AGENTBENCH_JUDGE_MODEL: '' };
  for (const { variable } of Object.values(JUDGE_MODEL_TYPES)) replayed[variable] = '';
  const spec = settings.agent.spec;
  if (mode === 'replay' && spec.type === 'http' && spec.api_key_env !== undefined && (replayed[spec.api_key_env] ?? process.env[spec.api_key_env] ?? '') === '') {
    replayed[spec.api_key_env] = 'offline-replay';
  }
  return replayed;
}
