import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SCENARIO_RUN_SETTINGS_FORMAT, SCENARIO_RUN_SETTINGS_VERSION, type ScenarioRunSettings } from '@agentbench/schemas';
import { writeJsonAtomic } from '@agentbench/helpers';
import { resolvedModelSettings, type ResolvedRoleModel } from '../../llm/llm-settings.js';
import { RUN_SETTINGS_FILE, SCENARIO_COPY_FILE } from '../result-files.js';
import { resultFolderOf } from './result-stage.js';
import type { ScenarioRun } from './scenario-run.js';

/**
 * Writes what a replay of this run needs before anything runs: `scenario.yaml` (the scenario file's
 * text as read, so a later edit of the file does not change what "this run" was) and
 * `run-settings.json` (its sha256 and original path, the matrix cell, the repeat, the seed, the agent
 * choice and every role's model and endpoint as resolved from settings and environment; never a key).
 */
export async function settingsStage(run: ScenarioRun): Promise<void> {
  if (run.options.writeResult === false) return;
  const folder = resultFolderOf(run);
  const text = await scenarioText(run);
  await mkdir(folder, { recursive: true });
  // Written once, before the run: a crash here leaves no run to replay, so no rename dance.
  await writeFile(path.join(folder, SCENARIO_COPY_FILE), text);
  await writeJsonAtomic(path.join(folder, RUN_SETTINGS_FILE), runSettingsOf(run, text));
}

/** The file's text; a scenario given only in memory (a matrix cell's base is still its file) is written as JSON, which YAML reads. */
async function scenarioText(run: ScenarioRun): Promise<string> {
  try {
    return await readFile(run.loaded.file, 'utf8');
  } catch {
    return `${JSON.stringify(run.definition, null, 2)}\n`;
  }
}

function roleModel(resolved: ResolvedRoleModel): ScenarioRunSettings['llm']['agent'] {
  return {
    base_url: resolved.baseURL,
    model: resolved.model ?? null,
    ...(resolved.timeoutMs === undefined ? {} : { timeout_ms: resolved.timeoutMs }),
    ...(resolved.maxRetries === undefined ? {} : { max_retries: resolved.maxRetries }),
  };
}

export function runSettingsOf(run: ScenarioRun, scenarioText: string): ScenarioRunSettings {
  const { options } = run;
  const models = resolvedModelSettings(run.llmSettings, run.env);
  const plugins = options.plugins;
  return {
    format: SCENARIO_RUN_SETTINGS_FORMAT,
    version: SCENARIO_RUN_SETTINGS_VERSION,
    run_id: run.runId,
    scenario: { name: run.definition.name, file: path.resolve(run.loaded.file), copy: SCENARIO_COPY_FILE, sha256: createHash('sha256').update(scenarioText).digest('hex') },
    matrix: options.matrix ?? null,
    repeat_index: options.matrix?.repeat ?? 0,
    seed: run.seed,
    is_live: options.isLive === true,
    agent: { source: run.agentChoice.source, spec: run.agentChoice.spec },
    llm: {
      agent: roleModel(models.agent),
      simulator: roleModel(models.simulator),
      judge: { ...roleModel(models.judge), model_types: models.judge.modelTypes, is_cache_enabled: models.judge.isCacheEnabled },
    },
    step_timeout_ms: run.stepTimeoutMs,
    ...(options.scriptTimeoutMs === undefined ? {} : { script_timeout_ms: options.scriptTimeoutMs }),
    plugins:
      plugins === undefined
        ? null
        : { from_cli: [...(plugins.fromCli ?? [])], cwd: plugins.cwd === undefined ? null : path.resolve(plugins.cwd), config_file: plugins.configFile === undefined ? null : plugins.configFile === false ? false : path.resolve(plugins.configFile) },
    env_file: options.envFile === undefined ? null : path.resolve(options.envFile),
  };
}
